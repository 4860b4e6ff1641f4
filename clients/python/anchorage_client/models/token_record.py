from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.token_grant import TokenGrant


T = TypeVar("T", bound="TokenRecord")


@_attrs_define
class TokenRecord:
    """A store's token, never its secret

    Attributes:
        created (datetime.datetime):
        grant (TokenGrant): What a token may do in its store: act as the owner (`owner`), as a peer that replicates the
            store (`replicates`), or as an app (`app`, its `read` and `share` types); `appName` when given
        id (str):
    """

    created: datetime.datetime
    grant: TokenGrant
    id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created = self.created.isoformat()

        grant = self.grant.to_dict()

        id = self.id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created": created,
                "grant": grant,
                "id": id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.token_grant import TokenGrant  # noqa: PLC0415

        d = dict(src_dict)
        created = datetime.datetime.fromisoformat(d.pop("created"))

        grant = TokenGrant.from_dict(d.pop("grant"))

        id = d.pop("id")

        token_record = cls(
            created=created,
            grant=grant,
            id=id,
        )

        token_record.additional_properties = d
        return token_record

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
