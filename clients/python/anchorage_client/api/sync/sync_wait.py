from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.sync_wait_response_200 import SyncWaitResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    after: int,
    epoch: int | Unset = UNSET,
    timeout: int | Unset = 25,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["after"] = after

    params["epoch"] = epoch

    params["timeout"] = timeout

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/sync/wait",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | SyncWaitResponse200 | None:
    if response.status_code == 200:
        response_200 = SyncWaitResponse200.from_dict(response.json())

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

    if response.status_code == 408:
        response_408 = Error.from_dict(response.json())

        return response_408

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 410:
        response_410 = Error.from_dict(response.json())

        return response_410

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | SyncWaitResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    after: int,
    epoch: int | Unset = UNSET,
    timeout: int | Unset = 25,
) -> Response[Error | SyncWaitResponse200]:
    """Holds until the store's head passes a position, or the time is up

    Args:
        after (int):
        epoch (int | Unset):
        timeout (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SyncWaitResponse200]
    """

    kwargs = _get_kwargs(
        after=after,
        epoch=epoch,
        timeout=timeout,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    after: int,
    epoch: int | Unset = UNSET,
    timeout: int | Unset = 25,
) -> Error | SyncWaitResponse200 | None:
    """Holds until the store's head passes a position, or the time is up

    Args:
        after (int):
        epoch (int | Unset):
        timeout (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SyncWaitResponse200
    """

    return sync_detailed(
        client=client,
        after=after,
        epoch=epoch,
        timeout=timeout,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    after: int,
    epoch: int | Unset = UNSET,
    timeout: int | Unset = 25,
) -> Response[Error | SyncWaitResponse200]:
    """Holds until the store's head passes a position, or the time is up

    Args:
        after (int):
        epoch (int | Unset):
        timeout (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SyncWaitResponse200]
    """

    kwargs = _get_kwargs(
        after=after,
        epoch=epoch,
        timeout=timeout,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    after: int,
    epoch: int | Unset = UNSET,
    timeout: int | Unset = 25,
) -> Error | SyncWaitResponse200 | None:
    """Holds until the store's head passes a position, or the time is up

    Args:
        after (int):
        epoch (int | Unset):
        timeout (int | Unset):  Default: 25.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SyncWaitResponse200
    """

    return (
        await asyncio_detailed(
            client=client,
            after=after,
            epoch=epoch,
            timeout=timeout,
        )
    ).parsed
