from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.metadata_bool import MetadataBool
    from ..models.metadata_date import MetadataDate
    from ..models.metadata_double import MetadataDouble
    from ..models.metadata_integer import MetadataInteger
    from ..models.metadata_quantity import MetadataQuantity
    from ..models.metadata_string import MetadataString


T = TypeVar("T", bound="Metadata")


@_attrs_define
class Metadata:
    """Metadata: up to 256 keys of 1 to 256 bytes, each to a tagged value. Keys beginning with `HK` must be HealthKit's;
    `HKMetadataKeySyncIdentifier` (a string) and `HKMetadataKeySyncVersion` (an integer or a double) come together.

        Example:
            {'HKMetadataKeyHeartRateMotionContext': {'integer': 1}, 'HKMetadataKeyWasUserEntered': {'bool': True}}

    """

    additional_properties: dict[
        str, MetadataBool | MetadataDate | MetadataDouble | MetadataInteger | MetadataQuantity | MetadataString
    ] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.metadata_bool import MetadataBool  # noqa: PLC0415
        from ..models.metadata_date import MetadataDate  # noqa: PLC0415
        from ..models.metadata_double import MetadataDouble  # noqa: PLC0415
        from ..models.metadata_integer import MetadataInteger  # noqa: PLC0415
        from ..models.metadata_string import MetadataString  # noqa: PLC0415

        field_dict: dict[str, Any] = {}
        for prop_name, prop in self.additional_properties.items():
            if isinstance(prop, MetadataString):
                field_dict[prop_name] = prop.to_dict()
            elif isinstance(prop, MetadataInteger):
                field_dict[prop_name] = prop.to_dict()
            elif isinstance(prop, MetadataDouble):
                field_dict[prop_name] = prop.to_dict()
            elif isinstance(prop, MetadataBool):
                field_dict[prop_name] = prop.to_dict()
            elif isinstance(prop, MetadataDate):
                field_dict[prop_name] = prop.to_dict()
            else:
                field_dict[prop_name] = prop.to_dict()

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.metadata_bool import MetadataBool  # noqa: PLC0415
        from ..models.metadata_date import MetadataDate  # noqa: PLC0415
        from ..models.metadata_double import MetadataDouble  # noqa: PLC0415
        from ..models.metadata_integer import MetadataInteger  # noqa: PLC0415
        from ..models.metadata_quantity import MetadataQuantity  # noqa: PLC0415
        from ..models.metadata_string import MetadataString  # noqa: PLC0415

        d = dict(src_dict)
        metadata = cls()

        additional_properties = {}
        for prop_name, prop_dict in d.items():

            def _parse_additional_property(
                data: object,
            ) -> MetadataBool | MetadataDate | MetadataDouble | MetadataInteger | MetadataQuantity | MetadataString:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_metadata_value_type_0 = MetadataString.from_dict(data)

                    return componentsschemas_metadata_value_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_metadata_value_type_1 = MetadataInteger.from_dict(data)

                    return componentsschemas_metadata_value_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_metadata_value_type_2 = MetadataDouble.from_dict(data)

                    return componentsschemas_metadata_value_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_metadata_value_type_3 = MetadataBool.from_dict(data)

                    return componentsschemas_metadata_value_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_metadata_value_type_4 = MetadataDate.from_dict(data)

                    return componentsschemas_metadata_value_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_metadata_value_type_5 = MetadataQuantity.from_dict(data)

                return componentsschemas_metadata_value_type_5

            additional_property = _parse_additional_property(prop_dict)

            additional_properties[prop_name] = additional_property

        metadata.additional_properties = additional_properties
        return metadata

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(
        self, key: str
    ) -> MetadataBool | MetadataDate | MetadataDouble | MetadataInteger | MetadataQuantity | MetadataString:
        return self.additional_properties[key]

    def __setitem__(
        self,
        key: str,
        value: MetadataBool | MetadataDate | MetadataDouble | MetadataInteger | MetadataQuantity | MetadataString,
    ) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
