from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="BatchReceipt")


@_attrs_define
class BatchReceipt:
    """What the store did with a pushed batch

    Attributes:
        applied (int): Entries appended
        checkpoint (int): The pusher's position this store's checkpoint now stands at (an unsigned 64-bit integer)
        skipped (int): Entries the store held already
    """

    applied: int
    checkpoint: int
    skipped: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        applied = self.applied

        checkpoint = self.checkpoint

        skipped = self.skipped

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "applied": applied,
                "checkpoint": checkpoint,
                "skipped": skipped,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        applied = d.pop("applied")

        checkpoint = d.pop("checkpoint")

        skipped = d.pop("skipped")

        batch_receipt = cls(
            applied=applied,
            checkpoint=checkpoint,
            skipped=skipped,
        )

        batch_receipt.additional_properties = d
        return batch_receipt

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
