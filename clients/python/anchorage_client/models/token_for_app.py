from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="TokenForApp")


@_attrs_define
class TokenForApp:
    """An app, by its bundle identifier (1 to 255 bytes), with the types it reads (`read`: sample type names or
    identifiers, and `activitySummary`) and saves (`share`: sample types, no correlation types); `appName` is its name
    as sources show it (its bundle identifier by default)

        Attributes:
            app (str):
            app_name (None | str | Unset):
            owner (bool | None | Unset): Absent, false or null (true is refused: the owner or a peer is its own form)
            peer (bool | None | Unset): Absent, false or null (true is refused: the owner or a peer is its own form)
            read (list[str] | None | Unset):
            share (list[str] | None | Unset):
    """

    app: str
    app_name: None | str | Unset = UNSET
    owner: bool | None | Unset = UNSET
    peer: bool | None | Unset = UNSET
    read: list[str] | None | Unset = UNSET
    share: list[str] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        app = self.app

        app_name: None | str | Unset
        if isinstance(self.app_name, Unset):
            app_name = UNSET
        else:
            app_name = self.app_name

        owner: bool | None | Unset
        if isinstance(self.owner, Unset):
            owner = UNSET
        else:
            owner = self.owner

        peer: bool | None | Unset
        if isinstance(self.peer, Unset):
            peer = UNSET
        else:
            peer = self.peer

        read: list[str] | None | Unset
        if isinstance(self.read, Unset):
            read = UNSET
        elif isinstance(self.read, list):
            read = self.read

        else:
            read = self.read

        share: list[str] | None | Unset
        if isinstance(self.share, Unset):
            share = UNSET
        elif isinstance(self.share, list):
            share = self.share

        else:
            share = self.share

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "app": app,
            }
        )
        if app_name is not UNSET:
            field_dict["appName"] = app_name
        if owner is not UNSET:
            field_dict["owner"] = owner
        if peer is not UNSET:
            field_dict["peer"] = peer
        if read is not UNSET:
            field_dict["read"] = read
        if share is not UNSET:
            field_dict["share"] = share

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        app = d.pop("app")

        def _parse_app_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        app_name = _parse_app_name(d.pop("appName", UNSET))

        def _parse_owner(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        owner = _parse_owner(d.pop("owner", UNSET))

        def _parse_peer(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        peer = _parse_peer(d.pop("peer", UNSET))

        def _parse_read(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                read_type_0 = cast(list[str], data)

                return read_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        read = _parse_read(d.pop("read", UNSET))

        def _parse_share(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                share_type_0 = cast(list[str], data)

                return share_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        share = _parse_share(d.pop("share", UNSET))

        token_for_app = cls(
            app=app,
            app_name=app_name,
            owner=owner,
            peer=peer,
            read=read,
            share=share,
        )

        token_for_app.additional_properties = d
        return token_for_app

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
