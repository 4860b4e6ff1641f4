from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.error_code_type_0 import ErrorCodeType0

T = TypeVar("T", bound="Error")


@_attrs_define
class Error:
    """
    Attributes:
        code (ErrorCodeType0 | str): Every code a node sends (docs/http-api.md, "Errors"); a client matches it, and may
            meet a newer node's code it does not know: the codes of this version, or another string
        message (str):
    """

    code: ErrorCodeType0 | str
    message: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code: str
        if isinstance(self.code, ErrorCodeType0):
            code = self.code.value
        else:
            code = self.code

        message = self.message

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "message": message,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_code(data: object) -> ErrorCodeType0 | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                code_type_0 = ErrorCodeType0(data)

                return code_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ErrorCodeType0 | str, data)

        code = _parse_code(d.pop("code"))

        message = d.pop("message")

        error = cls(
            code=code,
            message=message,
        )

        error.additional_properties = d
        return error

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
