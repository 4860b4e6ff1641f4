from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="AccessLogPageEntriesItem")


@_attrs_define
class AccessLogPageEntriesItem:
    """
    Attributes:
        action (str):
        cursor (str):
        principal (str):
        time (str):
        types (list[str]):
        count (int | Unset):
        from_ (str | Unset):
        phase (str | Unset):
        since (str | Unset):
        to (str | Unset):
        until (str | Unset):
    """

    action: str
    cursor: str
    principal: str
    time: str
    types: list[str]
    count: int | Unset = UNSET
    from_: str | Unset = UNSET
    phase: str | Unset = UNSET
    since: str | Unset = UNSET
    to: str | Unset = UNSET
    until: str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action = self.action

        cursor = self.cursor

        principal = self.principal

        time = self.time

        types = self.types

        count = self.count

        from_ = self.from_

        phase = self.phase

        since = self.since

        to = self.to

        until = self.until

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "cursor": cursor,
                "principal": principal,
                "time": time,
                "types": types,
            }
        )
        if count is not UNSET:
            field_dict["count"] = count
        if from_ is not UNSET:
            field_dict["from"] = from_
        if phase is not UNSET:
            field_dict["phase"] = phase
        if since is not UNSET:
            field_dict["since"] = since
        if to is not UNSET:
            field_dict["to"] = to
        if until is not UNSET:
            field_dict["until"] = until

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        action = d.pop("action")

        cursor = d.pop("cursor")

        principal = d.pop("principal")

        time = d.pop("time")

        types = cast(list[str], d.pop("types"))

        count = d.pop("count", UNSET)

        from_ = d.pop("from", UNSET)

        phase = d.pop("phase", UNSET)

        since = d.pop("since", UNSET)

        to = d.pop("to", UNSET)

        until = d.pop("until", UNSET)

        access_log_page_entries_item = cls(
            action=action,
            cursor=cursor,
            principal=principal,
            time=time,
            types=types,
            count=count,
            from_=from_,
            phase=phase,
            since=since,
            to=to,
            until=until,
        )

        access_log_page_entries_item.additional_properties = d
        return access_log_page_entries_item

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
