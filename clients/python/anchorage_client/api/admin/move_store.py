from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.move_store_body import MoveStoreBody
from ...models.store_placement import StorePlacement
from ...types import Response


def _get_kwargs(
    store: str,
    *,
    body: MoveStoreBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/stores/{store}/move".format(
            store=quote(str(store), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Error | StorePlacement | None:
    if response.status_code == 202:
        response_202 = StorePlacement.from_dict(response.json())

        return response_202

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

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | StorePlacement]:
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
    body: MoveStoreBody,
) -> Response[Error | StorePlacement]:
    """Moves a store's copy from one node to another

    Args:
        store (str):
        body (MoveStoreBody): Node ids; unknown fields are ignored. A move the placement does not
            allow is `409 invalidArgument`

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | StorePlacement]
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
    body: MoveStoreBody,
) -> Error | StorePlacement | None:
    """Moves a store's copy from one node to another

    Args:
        store (str):
        body (MoveStoreBody): Node ids; unknown fields are ignored. A move the placement does not
            allow is `409 invalidArgument`

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | StorePlacement
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
    body: MoveStoreBody,
) -> Response[Error | StorePlacement]:
    """Moves a store's copy from one node to another

    Args:
        store (str):
        body (MoveStoreBody): Node ids; unknown fields are ignored. A move the placement does not
            allow is `409 invalidArgument`

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | StorePlacement]
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
    body: MoveStoreBody,
) -> Error | StorePlacement | None:
    """Moves a store's copy from one node to another

    Args:
        store (str):
        body (MoveStoreBody): Node ids; unknown fields are ignored. A move the placement does not
            allow is `409 invalidArgument`

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | StorePlacement
    """

    return (
        await asyncio_detailed(
            store=store,
            client=client,
            body=body,
        )
    ).parsed
