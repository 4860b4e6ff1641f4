from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.prism import Prism


T = TypeVar("T", bound="Lens")


@_attrs_define
class Lens:
    """One eye's lens values, powers in diopters, the axis in degrees, distances in millimetres

    Attributes:
        sphere (float):
        add_power (float | Unset):
        axis (float | Unset):
        base_curve (float | Unset): Contacts
        cylinder (float | Unset):
        diameter (float | Unset): Contacts
        far_pupillary_distance (float | Unset): Glasses
        near_pupillary_distance (float | Unset): Glasses
        prism (Prism | Unset): A glasses lens' prism, amounts in prism diopters and the angle in degrees
        vertex_distance (float | Unset): Glasses
    """

    sphere: float
    add_power: float | Unset = UNSET
    axis: float | Unset = UNSET
    base_curve: float | Unset = UNSET
    cylinder: float | Unset = UNSET
    diameter: float | Unset = UNSET
    far_pupillary_distance: float | Unset = UNSET
    near_pupillary_distance: float | Unset = UNSET
    prism: Prism | Unset = UNSET
    vertex_distance: float | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        sphere = self.sphere

        add_power = self.add_power

        axis = self.axis

        base_curve = self.base_curve

        cylinder = self.cylinder

        diameter = self.diameter

        far_pupillary_distance = self.far_pupillary_distance

        near_pupillary_distance = self.near_pupillary_distance

        prism: dict[str, Any] | Unset = UNSET
        if not isinstance(self.prism, Unset):
            prism = self.prism.to_dict()

        vertex_distance = self.vertex_distance

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "sphere": sphere,
            }
        )
        if add_power is not UNSET:
            field_dict["addPower"] = add_power
        if axis is not UNSET:
            field_dict["axis"] = axis
        if base_curve is not UNSET:
            field_dict["baseCurve"] = base_curve
        if cylinder is not UNSET:
            field_dict["cylinder"] = cylinder
        if diameter is not UNSET:
            field_dict["diameter"] = diameter
        if far_pupillary_distance is not UNSET:
            field_dict["farPupillaryDistance"] = far_pupillary_distance
        if near_pupillary_distance is not UNSET:
            field_dict["nearPupillaryDistance"] = near_pupillary_distance
        if prism is not UNSET:
            field_dict["prism"] = prism
        if vertex_distance is not UNSET:
            field_dict["vertexDistance"] = vertex_distance

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.prism import Prism  # noqa: PLC0415

        d = dict(src_dict)
        sphere = d.pop("sphere")

        add_power = d.pop("addPower", UNSET)

        axis = d.pop("axis", UNSET)

        base_curve = d.pop("baseCurve", UNSET)

        cylinder = d.pop("cylinder", UNSET)

        diameter = d.pop("diameter", UNSET)

        far_pupillary_distance = d.pop("farPupillaryDistance", UNSET)

        near_pupillary_distance = d.pop("nearPupillaryDistance", UNSET)

        _prism = d.pop("prism", UNSET)
        prism: Prism | Unset
        if isinstance(_prism, Unset):
            prism = UNSET
        else:
            prism = Prism.from_dict(_prism)

        vertex_distance = d.pop("vertexDistance", UNSET)

        lens = cls(
            sphere=sphere,
            add_power=add_power,
            axis=axis,
            base_curve=base_curve,
            cylinder=cylinder,
            diameter=diameter,
            far_pupillary_distance=far_pupillary_distance,
            near_pupillary_distance=near_pupillary_distance,
            prism=prism,
            vertex_distance=vertex_distance,
        )

        lens.additional_properties = d
        return lens

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
