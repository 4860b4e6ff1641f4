from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.store_workout_routes_format import StoreWorkoutRoutesFormat
from ...models.workout_routes import WorkoutRoutes
from ...types import UNSET, Response, Unset


def _get_kwargs(
    store: str,
    uuid: UUID,
    *,
    format_: StoreWorkoutRoutesFormat | Unset = StoreWorkoutRoutesFormat.GEOJSON,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_format_: str | Unset = UNSET
    if not isinstance(format_, Unset):
        json_format_ = format_.value

    params["format"] = json_format_

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/stores/{store}/workouts/{uuid}/routes".format(
            store=quote(str(store), safe=""),
            uuid=quote(str(uuid), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | WorkoutRoutes | None:
    if response.status_code == 200:
        response_200 = WorkoutRoutes.from_dict(response.json())

        return response_200

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

    if response.status_code == 410:
        response_410 = Error.from_dict(response.json())

        return response_410

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | WorkoutRoutes]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    store: str,
    uuid: UUID,
    *,
    client: AuthenticatedClient | Client,
    format_: StoreWorkoutRoutesFormat | Unset = StoreWorkoutRoutesFormat.GEOJSON,
) -> Response[Error | WorkoutRoutes]:
    """A workout's routes as GeoJSON or GPX

    Args:
        store (str):
        uuid (UUID):
        format_ (StoreWorkoutRoutesFormat | Unset):  Default: StoreWorkoutRoutesFormat.GEOJSON.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WorkoutRoutes]
    """

    kwargs = _get_kwargs(
        store=store,
        uuid=uuid,
        format_=format_,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    store: str,
    uuid: UUID,
    *,
    client: AuthenticatedClient | Client,
    format_: StoreWorkoutRoutesFormat | Unset = StoreWorkoutRoutesFormat.GEOJSON,
) -> Error | WorkoutRoutes | None:
    """A workout's routes as GeoJSON or GPX

    Args:
        store (str):
        uuid (UUID):
        format_ (StoreWorkoutRoutesFormat | Unset):  Default: StoreWorkoutRoutesFormat.GEOJSON.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WorkoutRoutes
    """

    return sync_detailed(
        store=store,
        uuid=uuid,
        client=client,
        format_=format_,
    ).parsed


async def asyncio_detailed(
    store: str,
    uuid: UUID,
    *,
    client: AuthenticatedClient | Client,
    format_: StoreWorkoutRoutesFormat | Unset = StoreWorkoutRoutesFormat.GEOJSON,
) -> Response[Error | WorkoutRoutes]:
    """A workout's routes as GeoJSON or GPX

    Args:
        store (str):
        uuid (UUID):
        format_ (StoreWorkoutRoutesFormat | Unset):  Default: StoreWorkoutRoutesFormat.GEOJSON.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WorkoutRoutes]
    """

    kwargs = _get_kwargs(
        store=store,
        uuid=uuid,
        format_=format_,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    store: str,
    uuid: UUID,
    *,
    client: AuthenticatedClient | Client,
    format_: StoreWorkoutRoutesFormat | Unset = StoreWorkoutRoutesFormat.GEOJSON,
) -> Error | WorkoutRoutes | None:
    """A workout's routes as GeoJSON or GPX

    Args:
        store (str):
        uuid (UUID):
        format_ (StoreWorkoutRoutesFormat | Unset):  Default: StoreWorkoutRoutesFormat.GEOJSON.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WorkoutRoutes
    """

    return (
        await asyncio_detailed(
            store=store,
            uuid=uuid,
            client=client,
            format_=format_,
        )
    ).parsed
