from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.web_asset_response_200_kind import WebAssetResponse200Kind

T = TypeVar("T", bound="WebAssetResponse200")


@_attrs_define
class WebAssetResponse200:
    """`node.json`

    Attributes:
        kind (WebAssetResponse200Kind):
        tokens (bool): false: a node on loopback that takes no token
    """

    kind: WebAssetResponse200Kind
    tokens: bool

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind.value

        tokens = self.tokens

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "tokens": tokens,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = WebAssetResponse200Kind(d.pop("kind"))

        tokens = d.pop("tokens")

        web_asset_response_200 = cls(
            kind=kind,
            tokens=tokens,
        )

        return web_asset_response_200
