from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.peer_status_state import PeerStatusState
from ..types import UNSET, Unset

T = TypeVar("T", bound="PeerStatus")


@_attrs_define
class PeerStatus:
    """What the node's rounds with a peer did. `storeID` once the peer answered; `lastContact` and `lastSuccess` once they
    happened; `lastError` while the last round failed.

        Attributes:
            batches (int):
            checkpoint_fallbacks (int):
            consecutive_failures (int):
            lag_entries (int): Entries the peer holds that this store has not pulled, as last seen (an unsigned 64-bit
                integer)
            peer (str): The peer's address
            pulled_entries (int):
            pushed_entries (int):
            redundant_batches (int):
            skipped_entries (int):
            state (PeerStatusState):
            last_contact (datetime.datetime | Unset):
            last_error (str | Unset): The last failure's code and message
            last_success (datetime.datetime | Unset):
            store_id (UUID | Unset):
    """

    batches: int
    checkpoint_fallbacks: int
    consecutive_failures: int
    lag_entries: int
    peer: str
    pulled_entries: int
    pushed_entries: int
    redundant_batches: int
    skipped_entries: int
    state: PeerStatusState
    last_contact: datetime.datetime | Unset = UNSET
    last_error: str | Unset = UNSET
    last_success: datetime.datetime | Unset = UNSET
    store_id: UUID | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        batches = self.batches

        checkpoint_fallbacks = self.checkpoint_fallbacks

        consecutive_failures = self.consecutive_failures

        lag_entries = self.lag_entries

        peer = self.peer

        pulled_entries = self.pulled_entries

        pushed_entries = self.pushed_entries

        redundant_batches = self.redundant_batches

        skipped_entries = self.skipped_entries

        state = self.state.value

        last_contact: str | Unset = UNSET
        if not isinstance(self.last_contact, Unset):
            last_contact = self.last_contact.isoformat()

        last_error = self.last_error

        last_success: str | Unset = UNSET
        if not isinstance(self.last_success, Unset):
            last_success = self.last_success.isoformat()

        store_id: str | Unset = UNSET
        if not isinstance(self.store_id, Unset):
            store_id = str(self.store_id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "batches": batches,
                "checkpointFallbacks": checkpoint_fallbacks,
                "consecutiveFailures": consecutive_failures,
                "lagEntries": lag_entries,
                "peer": peer,
                "pulledEntries": pulled_entries,
                "pushedEntries": pushed_entries,
                "redundantBatches": redundant_batches,
                "skippedEntries": skipped_entries,
                "state": state,
            }
        )
        if last_contact is not UNSET:
            field_dict["lastContact"] = last_contact
        if last_error is not UNSET:
            field_dict["lastError"] = last_error
        if last_success is not UNSET:
            field_dict["lastSuccess"] = last_success
        if store_id is not UNSET:
            field_dict["storeID"] = store_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        batches = d.pop("batches")

        checkpoint_fallbacks = d.pop("checkpointFallbacks")

        consecutive_failures = d.pop("consecutiveFailures")

        lag_entries = d.pop("lagEntries")

        peer = d.pop("peer")

        pulled_entries = d.pop("pulledEntries")

        pushed_entries = d.pop("pushedEntries")

        redundant_batches = d.pop("redundantBatches")

        skipped_entries = d.pop("skippedEntries")

        state = PeerStatusState(d.pop("state"))

        _last_contact = d.pop("lastContact", UNSET)
        last_contact: datetime.datetime | Unset
        if isinstance(_last_contact, Unset):
            last_contact = UNSET
        else:
            last_contact = datetime.datetime.fromisoformat(_last_contact)

        last_error = d.pop("lastError", UNSET)

        _last_success = d.pop("lastSuccess", UNSET)
        last_success: datetime.datetime | Unset
        if isinstance(_last_success, Unset):
            last_success = UNSET
        else:
            last_success = datetime.datetime.fromisoformat(_last_success)

        _store_id = d.pop("storeID", UNSET)
        store_id: UUID | Unset
        if isinstance(_store_id, Unset):
            store_id = UNSET
        else:
            store_id = UUID(_store_id)

        peer_status = cls(
            batches=batches,
            checkpoint_fallbacks=checkpoint_fallbacks,
            consecutive_failures=consecutive_failures,
            lag_entries=lag_entries,
            peer=peer,
            pulled_entries=pulled_entries,
            pushed_entries=pushed_entries,
            redundant_batches=redundant_batches,
            skipped_entries=skipped_entries,
            state=state,
            last_contact=last_contact,
            last_error=last_error,
            last_success=last_success,
            store_id=store_id,
        )

        peer_status.additional_properties = d
        return peer_status

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
