from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.store_register_webhook_body_frequency_type_1 import StoreRegisterWebhookBodyFrequencyType1
from ..models.store_register_webhook_body_frequency_type_2_type_1 import StoreRegisterWebhookBodyFrequencyType2Type1
from ..models.store_register_webhook_body_frequency_type_3_type_1 import StoreRegisterWebhookBodyFrequencyType3Type1
from ..types import UNSET, Unset

T = TypeVar("T", bound="StoreRegisterWebhookBody")


@_attrs_define
class StoreRegisterWebhookBody:
    """
    Attributes:
        url (str): `http` or `https`, on a host the operator allows (`--webhook-host`), no user or password
        frequency (None | StoreRegisterWebhookBodyFrequencyType1 | StoreRegisterWebhookBodyFrequencyType2Type1 |
            StoreRegisterWebhookBodyFrequencyType3Type1 | Unset): Absent or null: immediate
        since (None | str | Unset): An anchor (a `newAnchor`) to start after; absent or null: the current head
        types (list[str] | None | Unset): The types to deliver (1 to 200); absent or null, every type the token's
            principal may read (for an app, the types its token reads or shares, as deliveries begin)
    """

    url: str
    frequency: (
        None
        | StoreRegisterWebhookBodyFrequencyType1
        | StoreRegisterWebhookBodyFrequencyType2Type1
        | StoreRegisterWebhookBodyFrequencyType3Type1
        | Unset
    ) = UNSET
    since: None | str | Unset = UNSET
    types: list[str] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        frequency: None | str | Unset
        if isinstance(self.frequency, Unset):
            frequency = UNSET
        elif isinstance(self.frequency, StoreRegisterWebhookBodyFrequencyType1):
            frequency = self.frequency.value
        elif isinstance(self.frequency, StoreRegisterWebhookBodyFrequencyType2Type1):
            frequency = self.frequency.value
        elif isinstance(self.frequency, StoreRegisterWebhookBodyFrequencyType3Type1):
            frequency = self.frequency.value
        else:
            frequency = self.frequency

        since: None | str | Unset
        if isinstance(self.since, Unset):
            since = UNSET
        else:
            since = self.since

        types: list[str] | None | Unset
        if isinstance(self.types, Unset):
            types = UNSET
        elif isinstance(self.types, list):
            types = self.types

        else:
            types = self.types

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "url": url,
            }
        )
        if frequency is not UNSET:
            field_dict["frequency"] = frequency
        if since is not UNSET:
            field_dict["since"] = since
        if types is not UNSET:
            field_dict["types"] = types

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        url = d.pop("url")

        def _parse_frequency(
            data: object,
        ) -> (
            None
            | StoreRegisterWebhookBodyFrequencyType1
            | StoreRegisterWebhookBodyFrequencyType2Type1
            | StoreRegisterWebhookBodyFrequencyType3Type1
            | Unset
        ):
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                frequency_type_1 = StoreRegisterWebhookBodyFrequencyType1(data)

                return frequency_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                frequency_type_2_type_1 = StoreRegisterWebhookBodyFrequencyType2Type1(data)

                return frequency_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                frequency_type_3_type_1 = StoreRegisterWebhookBodyFrequencyType3Type1(data)

                return frequency_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                None
                | StoreRegisterWebhookBodyFrequencyType1
                | StoreRegisterWebhookBodyFrequencyType2Type1
                | StoreRegisterWebhookBodyFrequencyType3Type1
                | Unset,
                data,
            )

        frequency = _parse_frequency(d.pop("frequency", UNSET))

        def _parse_since(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        since = _parse_since(d.pop("since", UNSET))

        def _parse_types(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                types_type_0 = cast(list[str], data)

                return types_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        types = _parse_types(d.pop("types", UNSET))

        store_register_webhook_body = cls(
            url=url,
            frequency=frequency,
            since=since,
            types=types,
        )

        store_register_webhook_body.additional_properties = d
        return store_register_webhook_body

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
