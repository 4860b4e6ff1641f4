from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.add_store_peer_body_direction_type_1 import AddStorePeerBodyDirectionType1
from ..models.add_store_peer_body_direction_type_2_type_1 import AddStorePeerBodyDirectionType2Type1
from ..models.add_store_peer_body_direction_type_3_type_1 import AddStorePeerBodyDirectionType3Type1
from ..types import UNSET, Unset

T = TypeVar("T", bound="AddStorePeerBody")


@_attrs_define
class AddStorePeerBody:
    """Unknown fields are ignored; at most 8 peers a store (`403 quotaExceeded`)

    Attributes:
        url (str): `http(s)://host…`: a node's, or one store's of a multi-store node (`…/v1/stores/alice`); no user,
            password, query or fragment; at most 2,048 bytes
        direction (AddStorePeerBodyDirectionType1 | AddStorePeerBodyDirectionType2Type1 |
            AddStorePeerBodyDirectionType3Type1 | None | Unset): Absent or null: both Default:
            AddStorePeerBodyDirectionType1.BOTH.
        token (None | str | Unset): The peer's token (1 to 1,024 ASCII characters, no space), kept to be sent and never
            shown; absent or null, none is sent
    """

    url: str
    direction: (
        AddStorePeerBodyDirectionType1
        | AddStorePeerBodyDirectionType2Type1
        | AddStorePeerBodyDirectionType3Type1
        | None
        | Unset
    ) = AddStorePeerBodyDirectionType1.BOTH
    token: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        direction: None | str | Unset
        if isinstance(self.direction, Unset):
            direction = UNSET
        elif isinstance(self.direction, AddStorePeerBodyDirectionType1):
            direction = self.direction.value
        elif isinstance(self.direction, AddStorePeerBodyDirectionType2Type1):
            direction = self.direction.value
        elif isinstance(self.direction, AddStorePeerBodyDirectionType3Type1):
            direction = self.direction.value
        else:
            direction = self.direction

        token: None | str | Unset
        if isinstance(self.token, Unset):
            token = UNSET
        else:
            token = self.token

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "url": url,
            }
        )
        if direction is not UNSET:
            field_dict["direction"] = direction
        if token is not UNSET:
            field_dict["token"] = token

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        def _parse_direction(
            data: object,
        ) -> (
            AddStorePeerBodyDirectionType1
            | AddStorePeerBodyDirectionType2Type1
            | AddStorePeerBodyDirectionType3Type1
            | None
            | Unset
        ):
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                direction_type_1 = AddStorePeerBodyDirectionType1(data)

                return direction_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                direction_type_2_type_1 = AddStorePeerBodyDirectionType2Type1(data)

                return direction_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                direction_type_3_type_1 = AddStorePeerBodyDirectionType3Type1(data)

                return direction_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                AddStorePeerBodyDirectionType1
                | AddStorePeerBodyDirectionType2Type1
                | AddStorePeerBodyDirectionType3Type1
                | None
                | Unset,
                data,
            )

        direction = _parse_direction(d.pop("direction", UNSET))

        def _parse_token(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        token = _parse_token(d.pop("token", UNSET))

        add_store_peer_body = cls(
            url=url,
            direction=direction,
            token=token,
        )

        add_store_peer_body.additional_properties = d
        return add_store_peer_body

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
