from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.activity_summary_activity_move_mode import ActivitySummaryActivityMoveMode
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.activity_quantity import ActivityQuantity


T = TypeVar("T", bound="ActivitySummary")


@_attrs_define
class ActivitySummary:
    """One day's activity summary (docs/json-format.md): its day, then HealthKit's property names, each quantity in the
    unit it was saved in (energy in kcal or kJ). The goals `exerciseTimeGoal` and `standHoursGoal` only when set. The
    same form in `GET /v1/activity-summaries`, in a change page's `activitySummaries` and in the NDJSON stream's
    `{"activitySummary": …}` lines.

        Attributes:
            active_energy_burned (ActivityQuantity): A quantity of an activity summary, in the unit it was saved in
            active_energy_burned_goal (ActivityQuantity): A quantity of an activity summary, in the unit it was saved in
            activity_move_mode (ActivitySummaryActivityMoveMode): HKActivityMoveMode: 1 active energy, 2 move time
            apple_exercise_time (ActivityQuantity): A quantity of an activity summary, in the unit it was saved in
            apple_exercise_time_goal (ActivityQuantity): A quantity of an activity summary, in the unit it was saved in
            apple_move_time (ActivityQuantity): A quantity of an activity summary, in the unit it was saved in
            apple_move_time_goal (ActivityQuantity): A quantity of an activity summary, in the unit it was saved in
            apple_stand_hours (ActivityQuantity): A quantity of an activity summary, in the unit it was saved in
            apple_stand_hours_goal (ActivityQuantity): A quantity of an activity summary, in the unit it was saved in
            date (datetime.date): The Gregorian day, yyyy-MM-dd Example: 2026-01-09.
            is_paused (bool):
            exercise_time_goal (ActivityQuantity | Unset): A quantity of an activity summary, in the unit it was saved in
            stand_hours_goal (ActivityQuantity | Unset): A quantity of an activity summary, in the unit it was saved in
    """

    active_energy_burned: ActivityQuantity
    active_energy_burned_goal: ActivityQuantity
    activity_move_mode: ActivitySummaryActivityMoveMode
    apple_exercise_time: ActivityQuantity
    apple_exercise_time_goal: ActivityQuantity
    apple_move_time: ActivityQuantity
    apple_move_time_goal: ActivityQuantity
    apple_stand_hours: ActivityQuantity
    apple_stand_hours_goal: ActivityQuantity
    date: datetime.date
    is_paused: bool
    exercise_time_goal: ActivityQuantity | Unset = UNSET
    stand_hours_goal: ActivityQuantity | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        active_energy_burned = self.active_energy_burned.to_dict()

        active_energy_burned_goal = self.active_energy_burned_goal.to_dict()

        activity_move_mode = self.activity_move_mode.value

        apple_exercise_time = self.apple_exercise_time.to_dict()

        apple_exercise_time_goal = self.apple_exercise_time_goal.to_dict()

        apple_move_time = self.apple_move_time.to_dict()

        apple_move_time_goal = self.apple_move_time_goal.to_dict()

        apple_stand_hours = self.apple_stand_hours.to_dict()

        apple_stand_hours_goal = self.apple_stand_hours_goal.to_dict()

        date = self.date.isoformat()

        is_paused = self.is_paused

        exercise_time_goal: dict[str, Any] | Unset = UNSET
        if not isinstance(self.exercise_time_goal, Unset):
            exercise_time_goal = self.exercise_time_goal.to_dict()

        stand_hours_goal: dict[str, Any] | Unset = UNSET
        if not isinstance(self.stand_hours_goal, Unset):
            stand_hours_goal = self.stand_hours_goal.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "activeEnergyBurned": active_energy_burned,
                "activeEnergyBurnedGoal": active_energy_burned_goal,
                "activityMoveMode": activity_move_mode,
                "appleExerciseTime": apple_exercise_time,
                "appleExerciseTimeGoal": apple_exercise_time_goal,
                "appleMoveTime": apple_move_time,
                "appleMoveTimeGoal": apple_move_time_goal,
                "appleStandHours": apple_stand_hours,
                "appleStandHoursGoal": apple_stand_hours_goal,
                "date": date,
                "isPaused": is_paused,
            }
        )
        if exercise_time_goal is not UNSET:
            field_dict["exerciseTimeGoal"] = exercise_time_goal
        if stand_hours_goal is not UNSET:
            field_dict["standHoursGoal"] = stand_hours_goal

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.activity_quantity import ActivityQuantity  # noqa: PLC0415

        d = dict(src_dict)
        active_energy_burned = ActivityQuantity.from_dict(d.pop("activeEnergyBurned"))

        active_energy_burned_goal = ActivityQuantity.from_dict(d.pop("activeEnergyBurnedGoal"))

        activity_move_mode = ActivitySummaryActivityMoveMode(d.pop("activityMoveMode"))

        apple_exercise_time = ActivityQuantity.from_dict(d.pop("appleExerciseTime"))

        apple_exercise_time_goal = ActivityQuantity.from_dict(d.pop("appleExerciseTimeGoal"))

        apple_move_time = ActivityQuantity.from_dict(d.pop("appleMoveTime"))

        apple_move_time_goal = ActivityQuantity.from_dict(d.pop("appleMoveTimeGoal"))

        apple_stand_hours = ActivityQuantity.from_dict(d.pop("appleStandHours"))

        apple_stand_hours_goal = ActivityQuantity.from_dict(d.pop("appleStandHoursGoal"))

        date = datetime.date.fromisoformat(d.pop("date"))

        is_paused = d.pop("isPaused")

        _exercise_time_goal = d.pop("exerciseTimeGoal", UNSET)
        exercise_time_goal: ActivityQuantity | Unset
        if isinstance(_exercise_time_goal, Unset):
            exercise_time_goal = UNSET
        else:
            exercise_time_goal = ActivityQuantity.from_dict(_exercise_time_goal)

        _stand_hours_goal = d.pop("standHoursGoal", UNSET)
        stand_hours_goal: ActivityQuantity | Unset
        if isinstance(_stand_hours_goal, Unset):
            stand_hours_goal = UNSET
        else:
            stand_hours_goal = ActivityQuantity.from_dict(_stand_hours_goal)

        activity_summary = cls(
            active_energy_burned=active_energy_burned,
            active_energy_burned_goal=active_energy_burned_goal,
            activity_move_mode=activity_move_mode,
            apple_exercise_time=apple_exercise_time,
            apple_exercise_time_goal=apple_exercise_time_goal,
            apple_move_time=apple_move_time,
            apple_move_time_goal=apple_move_time_goal,
            apple_stand_hours=apple_stand_hours,
            apple_stand_hours_goal=apple_stand_hours_goal,
            date=date,
            is_paused=is_paused,
            exercise_time_goal=exercise_time_goal,
            stand_hours_goal=stand_hours_goal,
        )

        activity_summary.additional_properties = d
        return activity_summary

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
