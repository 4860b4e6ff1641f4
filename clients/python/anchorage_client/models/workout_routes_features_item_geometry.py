from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WorkoutRoutesFeaturesItemGeometry")


@_attrs_define
class WorkoutRoutesFeaturesItemGeometry:
    """
    Attributes:
        coordinates (list[list[float]]): [longitude, latitude, altitude] in degrees and metres, one a location
        type_ (Literal['LineString']):
    """

    coordinates: list[list[float]]
    type_: Literal["LineString"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        coordinates = []
        for coordinates_item_data in self.coordinates:
            coordinates_item = coordinates_item_data

            coordinates.append(coordinates_item)

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "coordinates": coordinates,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        coordinates = []
        _coordinates = d.pop("coordinates")
        for coordinates_item_data in _coordinates:
            coordinates_item = cast(list[float], coordinates_item_data)

            coordinates.append(coordinates_item)

        type_ = cast(Literal["LineString"], d.pop("type"))
        if type_ != "LineString":
            raise ValueError(f"type must match const 'LineString', got '{type_}'")

        workout_routes_features_item_geometry = cls(
            coordinates=coordinates,
            type_=type_,
        )

        workout_routes_features_item_geometry.additional_properties = d
        return workout_routes_features_item_geometry

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
