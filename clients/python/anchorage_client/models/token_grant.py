from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="TokenGrant")


@_attrs_define
class TokenGrant:
    """What a token may do in its store: act as the owner (`owner`), as a peer that replicates the store (`replicates`), or
    as an app (`app`, its `read` and `share` types); `appName` when given

        Attributes:
            admin (bool):
            owner (bool):
            read (list[str]): Type names as given
            replicates (bool):
            share (list[str]): Type names as given
            store (str):
            app (str | Unset):
            app_name (str | Unset):
    """

    admin: bool
    owner: bool
    read: list[str]
    replicates: bool
    share: list[str]
    store: str
    app: str | Unset = UNSET
    app_name: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        admin = self.admin

        owner = self.owner

        read = self.read

        replicates = self.replicates

        share = self.share

        store = self.store

        app = self.app

        app_name = self.app_name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "admin": admin,
                "owner": owner,
                "read": read,
                "replicates": replicates,
                "share": share,
                "store": store,
            }
        )
        if app is not UNSET:
            field_dict["app"] = app
        if app_name is not UNSET:
            field_dict["appName"] = app_name

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        admin = d.pop("admin")

        owner = d.pop("owner")

        read = cast(list[str], d.pop("read"))

        replicates = d.pop("replicates")

        share = cast(list[str], d.pop("share"))

        store = d.pop("store")

        app = d.pop("app", UNSET)

        app_name = d.pop("appName", UNSET)

        token_grant = cls(
            admin=admin,
            owner=owner,
            read=read,
            replicates=replicates,
            share=share,
            store=store,
            app=app,
            app_name=app_name,
        )

        token_grant.additional_properties = d
        return token_grant

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
