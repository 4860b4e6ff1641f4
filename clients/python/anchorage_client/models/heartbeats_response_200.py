from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.heartbeats_response_200_heartbeats_item import HeartbeatsResponse200HeartbeatsItem


T = TypeVar("T", bound="HeartbeatsResponse200")


@_attrs_define
class HeartbeatsResponse200:
    """
    Attributes:
        end_date (str):
        heartbeats (list[HeartbeatsResponse200HeartbeatsItem]):
        start_date (str):
        uuid (UUID):
    """

    end_date: str
    heartbeats: list[HeartbeatsResponse200HeartbeatsItem]
    start_date: str
    uuid: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        end_date = self.end_date

        heartbeats = []
        for heartbeats_item_data in self.heartbeats:
            heartbeats_item = heartbeats_item_data.to_dict()
            heartbeats.append(heartbeats_item)

        start_date = self.start_date

        uuid = str(self.uuid)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "endDate": end_date,
                "heartbeats": heartbeats,
                "startDate": start_date,
                "uuid": uuid,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.heartbeats_response_200_heartbeats_item import HeartbeatsResponse200HeartbeatsItem  # noqa: PLC0415

        d = dict(src_dict)
        end_date = d.pop("endDate")

        heartbeats = []
        _heartbeats = d.pop("heartbeats")
        for heartbeats_item_data in _heartbeats:
            heartbeats_item = HeartbeatsResponse200HeartbeatsItem.from_dict(heartbeats_item_data)

            heartbeats.append(heartbeats_item)

        start_date = d.pop("startDate")

        uuid = UUID(d.pop("uuid"))

        heartbeats_response_200 = cls(
            end_date=end_date,
            heartbeats=heartbeats,
            start_date=start_date,
            uuid=uuid,
        )

        heartbeats_response_200.additional_properties = d
        return heartbeats_response_200

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
