from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.audiogram import Audiogram
from ...models.category_sample import CategorySample
from ...models.clinical_record import ClinicalRecord
from ...models.correlation import Correlation
from ...models.electrocardiogram import Electrocardiogram
from ...models.error import Error
from ...models.heartbeat_series import HeartbeatSeries
from ...models.medication_dose_event import MedicationDoseEvent
from ...models.quantity_sample import QuantitySample
from ...models.scored_assessment import ScoredAssessment
from ...models.state_of_mind import StateOfMind
from ...models.store_save_samples_body_type_1 import StoreSaveSamplesBodyType1
from ...models.store_save_samples_response_201 import StoreSaveSamplesResponse201
from ...models.vision_prescription import VisionPrescription
from ...models.workout import Workout
from ...models.workout_route import WorkoutRoute
from ...types import Response


def _get_kwargs(
    store: str,
    *,
    body: list[
        Audiogram
        | CategorySample
        | ClinicalRecord
        | Correlation
        | Electrocardiogram
        | HeartbeatSeries
        | MedicationDoseEvent
        | QuantitySample
        | ScoredAssessment
        | StateOfMind
        | VisionPrescription
        | Workout
        | WorkoutRoute
    ]
    | StoreSaveSamplesBodyType1,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/stores/{store}/samples".format(
            store=quote(str(store), safe=""),
        ),
    }

    if isinstance(body, list):
        _kwargs["json"] = []
        for body_type_0_item_data in body:
            body_type_0_item: dict[str, Any]
            if isinstance(body_type_0_item_data, QuantitySample):
                body_type_0_item = body_type_0_item_data.to_dict()
            elif isinstance(body_type_0_item_data, CategorySample):
                body_type_0_item = body_type_0_item_data.to_dict()
            elif isinstance(body_type_0_item_data, Correlation):
                body_type_0_item = body_type_0_item_data.to_dict()
            elif isinstance(body_type_0_item_data, Workout):
                body_type_0_item = body_type_0_item_data.to_dict()
            elif isinstance(body_type_0_item_data, WorkoutRoute):
                body_type_0_item = body_type_0_item_data.to_dict()
            elif isinstance(body_type_0_item_data, HeartbeatSeries):
                body_type_0_item = body_type_0_item_data.to_dict()
            elif isinstance(body_type_0_item_data, Electrocardiogram):
                body_type_0_item = body_type_0_item_data.to_dict()
            elif isinstance(body_type_0_item_data, Audiogram):
                body_type_0_item = body_type_0_item_data.to_dict()
            elif isinstance(body_type_0_item_data, StateOfMind):
                body_type_0_item = body_type_0_item_data.to_dict()
            elif isinstance(body_type_0_item_data, ScoredAssessment):
                body_type_0_item = body_type_0_item_data.to_dict()
            elif isinstance(body_type_0_item_data, VisionPrescription):
                body_type_0_item = body_type_0_item_data.to_dict()
            elif isinstance(body_type_0_item_data, ClinicalRecord):
                body_type_0_item = body_type_0_item_data.to_dict()
            else:
                body_type_0_item = body_type_0_item_data.to_dict()

            _kwargs["json"].append(body_type_0_item)

    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | StoreSaveSamplesResponse201 | None:
    if response.status_code == 201:
        response_201 = StoreSaveSamplesResponse201.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 408:
        response_408 = Error.from_dict(response.json())

        return response_408

    if response.status_code == 410:
        response_410 = Error.from_dict(response.json())

        return response_410

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | StoreSaveSamplesResponse201]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    store: str,
    *,
    client: AuthenticatedClient | Client,
    body: list[
        Audiogram
        | CategorySample
        | ClinicalRecord
        | Correlation
        | Electrocardiogram
        | HeartbeatSeries
        | MedicationDoseEvent
        | QuantitySample
        | ScoredAssessment
        | StateOfMind
        | VisionPrescription
        | Workout
        | WorkoutRoute
    ]
    | StoreSaveSamplesBodyType1,
) -> Response[Error | StoreSaveSamplesResponse201]:
    """Saves samples, all or none

    Args:
        store (str):
        body (list[Audiogram | CategorySample | ClinicalRecord | Correlation | Electrocardiogram |
            HeartbeatSeries | MedicationDoseEvent | QuantitySample | ScoredAssessment | StateOfMind |
            VisionPrescription | Workout | WorkoutRoute] | StoreSaveSamplesBodyType1):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | StoreSaveSamplesResponse201]
    """

    kwargs = _get_kwargs(
        store=store,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    store: str,
    *,
    client: AuthenticatedClient | Client,
    body: list[
        Audiogram
        | CategorySample
        | ClinicalRecord
        | Correlation
        | Electrocardiogram
        | HeartbeatSeries
        | MedicationDoseEvent
        | QuantitySample
        | ScoredAssessment
        | StateOfMind
        | VisionPrescription
        | Workout
        | WorkoutRoute
    ]
    | StoreSaveSamplesBodyType1,
) -> Error | StoreSaveSamplesResponse201 | None:
    """Saves samples, all or none

    Args:
        store (str):
        body (list[Audiogram | CategorySample | ClinicalRecord | Correlation | Electrocardiogram |
            HeartbeatSeries | MedicationDoseEvent | QuantitySample | ScoredAssessment | StateOfMind |
            VisionPrescription | Workout | WorkoutRoute] | StoreSaveSamplesBodyType1):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | StoreSaveSamplesResponse201
    """

    return sync_detailed(
        store=store,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    store: str,
    *,
    client: AuthenticatedClient | Client,
    body: list[
        Audiogram
        | CategorySample
        | ClinicalRecord
        | Correlation
        | Electrocardiogram
        | HeartbeatSeries
        | MedicationDoseEvent
        | QuantitySample
        | ScoredAssessment
        | StateOfMind
        | VisionPrescription
        | Workout
        | WorkoutRoute
    ]
    | StoreSaveSamplesBodyType1,
) -> Response[Error | StoreSaveSamplesResponse201]:
    """Saves samples, all or none

    Args:
        store (str):
        body (list[Audiogram | CategorySample | ClinicalRecord | Correlation | Electrocardiogram |
            HeartbeatSeries | MedicationDoseEvent | QuantitySample | ScoredAssessment | StateOfMind |
            VisionPrescription | Workout | WorkoutRoute] | StoreSaveSamplesBodyType1):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | StoreSaveSamplesResponse201]
    """

    kwargs = _get_kwargs(
        store=store,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    store: str,
    *,
    client: AuthenticatedClient | Client,
    body: list[
        Audiogram
        | CategorySample
        | ClinicalRecord
        | Correlation
        | Electrocardiogram
        | HeartbeatSeries
        | MedicationDoseEvent
        | QuantitySample
        | ScoredAssessment
        | StateOfMind
        | VisionPrescription
        | Workout
        | WorkoutRoute
    ]
    | StoreSaveSamplesBodyType1,
) -> Error | StoreSaveSamplesResponse201 | None:
    """Saves samples, all or none

    Args:
        store (str):
        body (list[Audiogram | CategorySample | ClinicalRecord | Correlation | Electrocardiogram |
            HeartbeatSeries | MedicationDoseEvent | QuantitySample | ScoredAssessment | StateOfMind |
            VisionPrescription | Workout | WorkoutRoute] | StoreSaveSamplesBodyType1):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | StoreSaveSamplesResponse201
    """

    return (
        await asyncio_detailed(
            store=store,
            client=client,
            body=body,
        )
    ).parsed
