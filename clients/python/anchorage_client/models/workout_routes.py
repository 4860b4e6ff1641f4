from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.workout_routes_features_item import WorkoutRoutesFeaturesItem


T = TypeVar("T", bound="WorkoutRoutes")


@_attrs_define
class WorkoutRoutes:
    """A workout's routes as GeoJSON (RFC 7946): a `FeatureCollection` with one `Feature` a route, oldest first, whose
    geometry is a `LineString` of `[longitude, latitude, altitude]` positions in time order (every location of the
    route, however few) and whose properties hold the route's dates and, one entry a position, each location's time,
    speed, course and accuracies. Numbers are Swift's shortest exact form, times have as many fractional digits as they
    need: read back, they are the values stored.

        Attributes:
            features (list[WorkoutRoutesFeaturesItem]):
            type_ (Literal['FeatureCollection']):
    """

    features: list[WorkoutRoutesFeaturesItem]
    type_: Literal["FeatureCollection"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        features = []
        for features_item_data in self.features:
            features_item = features_item_data.to_dict()
            features.append(features_item)

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "features": features,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.workout_routes_features_item import WorkoutRoutesFeaturesItem  # noqa: PLC0415

        d = dict(src_dict)
        features = []
        _features = d.pop("features")
        for features_item_data in _features:
            features_item = WorkoutRoutesFeaturesItem.from_dict(features_item_data)

            features.append(features_item)

        type_ = cast(Literal["FeatureCollection"], d.pop("type"))
        if type_ != "FeatureCollection":
            raise ValueError(f"type must match const 'FeatureCollection', got '{type_}'")

        workout_routes = cls(
            features=features,
            type_=type_,
        )

        workout_routes.additional_properties = d
        return workout_routes

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
