from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_frequency import WebhookFrequency
from ..types import UNSET, Unset

T = TypeVar("T", bound="Webhook")


@_attrs_define
class Webhook:
    """
    Attributes:
        frequency (WebhookFrequency):
        id (str):
        url (str):
        anchor (None | str | Unset): The anchor the next delivery starts after (as a change page's `newAnchor`)
        failures (int | Unset):
        last_delivery (None | str | Unset):
        last_error (None | str | Unset):
        next_attempt (None | str | Unset):
        secret (str | Unset): Only in the answer to the registration
        types (list[str] | None | Unset): null: every type
    """

    frequency: WebhookFrequency
    id: str
    url: str
    anchor: None | str | Unset = UNSET
    failures: int | Unset = UNSET
    last_delivery: None | str | Unset = UNSET
    last_error: None | str | Unset = UNSET
    next_attempt: None | str | Unset = UNSET
    secret: str | Unset = UNSET
    types: list[str] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        frequency = self.frequency.value

        id = self.id

        url = self.url

        anchor: None | str | Unset
        if isinstance(self.anchor, Unset):
            anchor = UNSET
        else:
            anchor = self.anchor

        failures = self.failures

        last_delivery: None | str | Unset
        if isinstance(self.last_delivery, Unset):
            last_delivery = UNSET
        else:
            last_delivery = self.last_delivery

        last_error: None | str | Unset
        if isinstance(self.last_error, Unset):
            last_error = UNSET
        else:
            last_error = self.last_error

        next_attempt: None | str | Unset
        if isinstance(self.next_attempt, Unset):
            next_attempt = UNSET
        else:
            next_attempt = self.next_attempt

        secret = self.secret

        types: list[str] | None | Unset
        if isinstance(self.types, Unset):
            types = UNSET
        elif isinstance(self.types, list):
            types = self.types

        else:
            types = self.types

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "frequency": frequency,
                "id": id,
                "url": url,
            }
        )
        if anchor is not UNSET:
            field_dict["anchor"] = anchor
        if failures is not UNSET:
            field_dict["failures"] = failures
        if last_delivery is not UNSET:
            field_dict["lastDelivery"] = last_delivery
        if last_error is not UNSET:
            field_dict["lastError"] = last_error
        if next_attempt is not UNSET:
            field_dict["nextAttempt"] = next_attempt
        if secret is not UNSET:
            field_dict["secret"] = secret
        if types is not UNSET:
            field_dict["types"] = types

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        frequency = WebhookFrequency(d.pop("frequency"))

        id = d.pop("id")

        url = d.pop("url")

        def _parse_anchor(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        anchor = _parse_anchor(d.pop("anchor", UNSET))

        failures = d.pop("failures", UNSET)

        def _parse_last_delivery(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        last_delivery = _parse_last_delivery(d.pop("lastDelivery", UNSET))

        def _parse_last_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        last_error = _parse_last_error(d.pop("lastError", UNSET))

        def _parse_next_attempt(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        next_attempt = _parse_next_attempt(d.pop("nextAttempt", UNSET))

        secret = d.pop("secret", UNSET)

        def _parse_types(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                types_type_0 = cast(list[str], data)

                return types_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        types = _parse_types(d.pop("types", UNSET))

        webhook = cls(
            frequency=frequency,
            id=id,
            url=url,
            anchor=anchor,
            failures=failures,
            last_delivery=last_delivery,
            last_error=last_error,
            next_attempt=next_attempt,
            secret=secret,
            types=types,
        )

        webhook.additional_properties = d
        return webhook

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
