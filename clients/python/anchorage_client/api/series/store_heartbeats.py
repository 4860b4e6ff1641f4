from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.store_heartbeats_response_200 import StoreHeartbeatsResponse200
from ...types import Response


def _get_kwargs(
    store: str,
    uuid: UUID,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/stores/{store}/heartbeat-series/{uuid}/heartbeats".format(
            store=quote(str(store), safe=""),
            uuid=quote(str(uuid), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | StoreHeartbeatsResponse200 | None:
    if response.status_code == 200:
        response_200 = StoreHeartbeatsResponse200.from_dict(response.json())

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
) -> Response[Error | StoreHeartbeatsResponse200]:
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
) -> Response[Error | StoreHeartbeatsResponse200]:
    """A heartbeat series' beats as JSON

    Args:
        store (str):
        uuid (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | StoreHeartbeatsResponse200]
    """

    kwargs = _get_kwargs(
        store=store,
        uuid=uuid,
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
) -> Error | StoreHeartbeatsResponse200 | None:
    """A heartbeat series' beats as JSON

    Args:
        store (str):
        uuid (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | StoreHeartbeatsResponse200
    """

    return sync_detailed(
        store=store,
        uuid=uuid,
        client=client,
    ).parsed


async def asyncio_detailed(
    store: str,
    uuid: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | StoreHeartbeatsResponse200]:
    """A heartbeat series' beats as JSON

    Args:
        store (str):
        uuid (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | StoreHeartbeatsResponse200]
    """

    kwargs = _get_kwargs(
        store=store,
        uuid=uuid,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    store: str,
    uuid: UUID,
    *,
    client: AuthenticatedClient | Client,
) -> Error | StoreHeartbeatsResponse200 | None:
    """A heartbeat series' beats as JSON

    Args:
        store (str):
        uuid (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | StoreHeartbeatsResponse200
    """

    return (
        await asyncio_detailed(
            store=store,
            uuid=uuid,
            client=client,
        )
    ).parsed
