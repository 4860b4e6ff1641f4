from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.store_authorization_response_200_principal import StoreAuthorizationResponse200Principal
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.store_authorization_response_200_app import StoreAuthorizationResponse200App


T = TypeVar("T", bound="StoreAuthorizationResponse200")


@_attrs_define
class StoreAuthorizationResponse200:
    """
    Attributes:
        principal (StoreAuthorizationResponse200Principal):
        app (StoreAuthorizationResponse200App | Unset):
        read (list[str] | Unset): The type identifiers the app reads (an app's answer only)
        share (list[str] | Unset): The type identifiers the app saves, and reads its own of (an app's answer only)
    """

    principal: StoreAuthorizationResponse200Principal
    app: StoreAuthorizationResponse200App | Unset = UNSET
    read: list[str] | Unset = UNSET
    share: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        principal = self.principal.value

        app: dict[str, Any] | Unset = UNSET
        if not isinstance(self.app, Unset):
            app = self.app.to_dict()

        read: list[str] | Unset = UNSET
        if not isinstance(self.read, Unset):
            read = self.read

        share: list[str] | Unset = UNSET
        if not isinstance(self.share, Unset):
            share = self.share

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "principal": principal,
            }
        )
        if app is not UNSET:
            field_dict["app"] = app
        if read is not UNSET:
            field_dict["read"] = read
        if share is not UNSET:
            field_dict["share"] = share

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.store_authorization_response_200_app import StoreAuthorizationResponse200App  # noqa: PLC0415

        d = dict(src_dict)
        principal = StoreAuthorizationResponse200Principal(d.pop("principal"))

        _app = d.pop("app", UNSET)
        app: StoreAuthorizationResponse200App | Unset
        if isinstance(_app, Unset):
            app = UNSET
        else:
            app = StoreAuthorizationResponse200App.from_dict(_app)

        read = cast(list[str], d.pop("read", UNSET))

        share = cast(list[str], d.pop("share", UNSET))

        store_authorization_response_200 = cls(
            principal=principal,
            app=app,
            read=read,
            share=share,
        )

        return store_authorization_response_200
