from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.workout_routes_features_item_geometry import WorkoutRoutesFeaturesItemGeometry
    from ..models.workout_routes_features_item_properties import WorkoutRoutesFeaturesItemProperties


T = TypeVar("T", bound="WorkoutRoutesFeaturesItem")


@_attrs_define
class WorkoutRoutesFeaturesItem:
    """
    Attributes:
        geometry (WorkoutRoutesFeaturesItemGeometry):
        id (UUID): The route's uuid
        properties (WorkoutRoutesFeaturesItemProperties):
        type_ (Literal['Feature']):
    """

    geometry: WorkoutRoutesFeaturesItemGeometry
    id: UUID
    properties: WorkoutRoutesFeaturesItemProperties
    type_: Literal["Feature"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        geometry = self.geometry.to_dict()

        id = str(self.id)

        properties = self.properties.to_dict()

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "geometry": geometry,
                "id": id,
                "properties": properties,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.workout_routes_features_item_geometry import WorkoutRoutesFeaturesItemGeometry  # noqa: PLC0415
        from ..models.workout_routes_features_item_properties import WorkoutRoutesFeaturesItemProperties  # noqa: PLC0415

        d = dict(src_dict)
        geometry = WorkoutRoutesFeaturesItemGeometry.from_dict(d.pop("geometry"))

        id = UUID(d.pop("id"))

        properties = WorkoutRoutesFeaturesItemProperties.from_dict(d.pop("properties"))

        type_ = cast(Literal["Feature"], d.pop("type"))
        if type_ != "Feature":
            raise ValueError(f"type must match const 'Feature', got '{type_}'")

        workout_routes_features_item = cls(
            geometry=geometry,
            id=id,
            properties=properties,
            type_=type_,
        )

        workout_routes_features_item.additional_properties = d
        return workout_routes_features_item

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
