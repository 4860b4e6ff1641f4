from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="StoreSetSourcePriorityBody")


@_attrs_define
class StoreSetSourcePriorityBody:
    """
    Attributes:
        sources (list[str]): Bundle identifiers, highest priority first, each once; empty: no order
        type_ (str): A quantity type: a name (`stepCount`) or identifier
    """

    sources: list[str]
    type_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        sources = self.sources

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "sources": sources,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        sources = cast(list[str], d.pop("sources"))

        type_ = d.pop("type")

        store_set_source_priority_body = cls(
            sources=sources,
            type_=type_,
        )

        store_set_source_priority_body.additional_properties = d
        return store_set_source_priority_body

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
