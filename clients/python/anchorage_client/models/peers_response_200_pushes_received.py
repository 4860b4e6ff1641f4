from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PeersResponse200PushesReceived")


@_attrs_define
class PeersResponse200PushesReceived:
    """The batches peers pushed here; `redundantBatches` held only entries this store had

    Attributes:
        batches (int):
        entries (int):
        redundant_batches (int):
    """

    batches: int
    entries: int
    redundant_batches: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        batches = self.batches

        entries = self.entries

        redundant_batches = self.redundant_batches

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "batches": batches,
                "entries": entries,
                "redundantBatches": redundant_batches,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        batches = d.pop("batches")

        entries = d.pop("entries")

        redundant_batches = d.pop("redundantBatches")

        peers_response_200_pushes_received = cls(
            batches=batches,
            entries=entries,
            redundant_batches=redundant_batches,
        )

        peers_response_200_pushes_received.additional_properties = d
        return peers_response_200_pushes_received

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
