from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.pull_request_version_vector import PullRequestVersionVector


T = TypeVar("T", bound="PullRequest")


@_attrs_define
class PullRequest:
    """A request for the store's entries after a position of its log (docs/sync-protocol.md, "A round"). Unknown fields are
    ignored. `maxEntries` and `maxBytes` are bounded by the node's limits (at least one entry is sent);
    `waitMilliseconds` by 60 s.

        Attributes:
            incarnation (int): The store's incarnation `since` belongs to (an unsigned 64-bit integer)
            max_bytes (int):
            max_entries (int):
            since (int): The position the batch starts after (0: the beginning); an unsigned 64-bit integer
            version_vector (PullRequestVersionVector): The puller's version vector (origins as uuids in either case);
                entries it covers are not sent
            epoch (int | None | Unset): The puller's highest fleet epoch, when it is a fleet copy
            wait_milliseconds (int | None | Unset): With nothing after `since`, wait up to this long (at most 60 s) for an
                entry; only to a store whose identity names `waitingPull`
    """

    incarnation: int
    max_bytes: int
    max_entries: int
    since: int
    version_vector: PullRequestVersionVector
    epoch: int | None | Unset = UNSET
    wait_milliseconds: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        incarnation = self.incarnation

        max_bytes = self.max_bytes

        max_entries = self.max_entries

        since = self.since

        version_vector = self.version_vector.to_dict()

        epoch: int | None | Unset
        if isinstance(self.epoch, Unset):
            epoch = UNSET
        else:
            epoch = self.epoch

        wait_milliseconds: int | None | Unset
        if isinstance(self.wait_milliseconds, Unset):
            wait_milliseconds = UNSET
        else:
            wait_milliseconds = self.wait_milliseconds

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "incarnation": incarnation,
                "maxBytes": max_bytes,
                "maxEntries": max_entries,
                "since": since,
                "versionVector": version_vector,
            }
        )
        if epoch is not UNSET:
            field_dict["epoch"] = epoch
        if wait_milliseconds is not UNSET:
            field_dict["waitMilliseconds"] = wait_milliseconds

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.pull_request_version_vector import PullRequestVersionVector  # noqa: PLC0415

        d = dict(src_dict)
        incarnation = d.pop("incarnation")

        max_bytes = d.pop("maxBytes")

        max_entries = d.pop("maxEntries")

        since = d.pop("since")

        version_vector = PullRequestVersionVector.from_dict(d.pop("versionVector"))

        def _parse_epoch(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        epoch = _parse_epoch(d.pop("epoch", UNSET))

        def _parse_wait_milliseconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        wait_milliseconds = _parse_wait_milliseconds(d.pop("waitMilliseconds", UNSET))

        pull_request = cls(
            incarnation=incarnation,
            max_bytes=max_bytes,
            max_entries=max_entries,
            since=since,
            version_vector=version_vector,
            epoch=epoch,
            wait_milliseconds=wait_milliseconds,
        )

        pull_request.additional_properties = d
        return pull_request

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
