from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.store_record_state import StoreRecordState
from ..types import UNSET, Unset

T = TypeVar("T", bound="StoreRecord")


@_attrs_define
class StoreRecord:
    """A store of a multi-store node's registry; `maximumBytes` while it has a quota

    Attributes:
        created (datetime.datetime):
        id (str):
        state (StoreRecordState):
        maximum_bytes (int | Unset):
    """

    created: datetime.datetime
    id: str
    state: StoreRecordState
    maximum_bytes: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created = self.created.isoformat()

        id = self.id

        state = self.state.value

        maximum_bytes = self.maximum_bytes

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created": created,
                "id": id,
                "state": state,
            }
        )
        if maximum_bytes is not UNSET:
            field_dict["maximumBytes"] = maximum_bytes

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created = datetime.datetime.fromisoformat(d.pop("created"))

        id = d.pop("id")

        state = StoreRecordState(d.pop("state"))

        maximum_bytes = d.pop("maximumBytes", UNSET)

        store_record = cls(
            created=created,
            id=id,
            state=state,
            maximum_bytes=maximum_bytes,
        )

        store_record.additional_properties = d
        return store_record

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
