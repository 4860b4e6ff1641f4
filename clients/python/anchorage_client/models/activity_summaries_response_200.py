from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.activity_summary import ActivitySummary


T = TypeVar("T", bound="ActivitySummariesResponse200")


@_attrs_define
class ActivitySummariesResponse200:
    """
    Attributes:
        activity_summaries (list[ActivitySummary]):
    """

    activity_summaries: list[ActivitySummary]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        activity_summaries = []
        for activity_summaries_item_data in self.activity_summaries:
            activity_summaries_item = activity_summaries_item_data.to_dict()
            activity_summaries.append(activity_summaries_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "activitySummaries": activity_summaries,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.activity_summary import ActivitySummary  # noqa: PLC0415

        d = dict(src_dict)
        activity_summaries = []
        _activity_summaries = d.pop("activitySummaries")
        for activity_summaries_item_data in _activity_summaries:
            activity_summaries_item = ActivitySummary.from_dict(activity_summaries_item_data)

            activity_summaries.append(activity_summaries_item)

        activity_summaries_response_200 = cls(
            activity_summaries=activity_summaries,
        )

        activity_summaries_response_200.additional_properties = d
        return activity_summaries_response_200

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
