from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.created_stores import CreatedStores
from ...models.error import Error
from ...models.store_creation import StoreCreation
from ...models.store_placement import StorePlacement
from ...models.stores_creation import StoresCreation
from ...types import Response


def _get_kwargs(
    *,
    body: StoreCreation | StoresCreation,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/stores",
    }

    if isinstance(body, StoreCreation):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CreatedStores | StorePlacement | Error | StorePlacement | None:
    if response.status_code == 200:
        response_200 = StorePlacement.from_dict(response.json())

        return response_200

    if response.status_code == 201:

        def _parse_response_201(data: object) -> CreatedStores | StorePlacement:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_201_type_0 = CreatedStores.from_dict(data)

                return response_201_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            response_201_type_1 = StorePlacement.from_dict(data)

            return response_201_type_1

        response_201 = _parse_response_201(response.json())

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
) -> Response[CreatedStores | StorePlacement | Error | StorePlacement]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: StoreCreation | StoresCreation,
) -> Response[CreatedStores | StorePlacement | Error | StorePlacement]:
    """Creates one store or up to 1,000, all or none

     A multi-store node creates `{"id"}` or `{"ids": […]}` in one commit, all or none; a fleet node one
    store a request (`{"id"}` only), placed by its controller. Unknown fields are ignored.

    Args:
        body (StoreCreation | StoresCreation):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreatedStores | StorePlacement | Error | StorePlacement]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: StoreCreation | StoresCreation,
) -> CreatedStores | StorePlacement | Error | StorePlacement | None:
    """Creates one store or up to 1,000, all or none

     A multi-store node creates `{"id"}` or `{"ids": […]}` in one commit, all or none; a fleet node one
    store a request (`{"id"}` only), placed by its controller. Unknown fields are ignored.

    Args:
        body (StoreCreation | StoresCreation):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreatedStores | StorePlacement | Error | StorePlacement
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: StoreCreation | StoresCreation,
) -> Response[CreatedStores | StorePlacement | Error | StorePlacement]:
    """Creates one store or up to 1,000, all or none

     A multi-store node creates `{"id"}` or `{"ids": […]}` in one commit, all or none; a fleet node one
    store a request (`{"id"}` only), placed by its controller. Unknown fields are ignored.

    Args:
        body (StoreCreation | StoresCreation):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreatedStores | StorePlacement | Error | StorePlacement]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: StoreCreation | StoresCreation,
) -> CreatedStores | StorePlacement | Error | StorePlacement | None:
    """Creates one store or up to 1,000, all or none

     A multi-store node creates `{"id"}` or `{"ids": […]}` in one commit, all or none; a fleet node one
    store a request (`{"id"}` only), placed by its controller. Unknown fields are ignored.

    Args:
        body (StoreCreation | StoresCreation):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreatedStores | StorePlacement | Error | StorePlacement
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
