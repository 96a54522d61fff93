"""One serialiser for citewise's frozen records: dataclasses to JSON-ready data and back, by type hints.

Every audit event and the records inside it (sources, reviews, drafts, ledger entries ...) are written
and read by these two functions, so a field added to a record is stored and restored without touching
any reader. Enums become their values, datetimes and dates ISO 8601 text, Decimals plain strings,
tuples lists; reading reverses each step from the field's declared type.

>>> from dataclasses import dataclass
>>> from datetime import date
>>> @dataclass(frozen=True)
... class Point:
...     name: str
...     on: date
...     tags: tuple[str, ...] = ()
>>> data = to_data(Point("a", date(2024, 1, 2), ("x",)))
>>> data
{'name': 'a', 'on': '2024-01-02', 'tags': ['x']}
>>> from_data(Point, data) == Point("a", date(2024, 1, 2), ("x",))
True
"""

from __future__ import annotations

import dataclasses
import enum
import sys
import types
import typing
from collections.abc import Mapping
from datetime import date, datetime
from decimal import Decimal
from functools import cache
from pathlib import PurePath
from typing import Any, TypeVar, Union, get_args, get_origin

__all__ = ["SerialError", "from_data", "to_data"]

T = TypeVar("T")


class SerialError(ValueError):
    """Stored data does not fit the record type it is read as."""


def to_data(value: Any) -> Any:
    """``value`` as JSON-ready data (dicts, lists, strings, numbers, booleans, None); paths become text."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_data(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, PurePath):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): to_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [to_data(v) for v in value]
    return value


def from_data(cls: type[T], data: Any) -> T:
    """The record of type ``cls`` that :func:`to_data` made ``data`` from."""
    return typing.cast(T, _read(cls, data, cls.__name__))


@cache
def _hints(cls: type) -> dict[str, Any]:
    module = sys.modules.get(cls.__module__)
    return typing.get_type_hints(cls, vars(module) if module else None)


def _read(tp: Any, data: Any, where: str) -> Any:
    origin = get_origin(tp)
    if tp is Any:
        return data
    if origin is Union or origin is types.UnionType:
        return _read_union(tp, data, where)
    if origin is typing.Literal:
        return data
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return _read_dataclass(tp, data, where)
    if origin in (tuple, list, set, frozenset):
        return _read_sequence(tp, origin, data, where)
    if origin in (dict, Mapping) or tp is dict:
        args = get_args(tp)
        value_type = args[1] if len(args) == 2 else Any
        if not isinstance(data, Mapping):
            raise SerialError(f"{where}: expected an object, got {type(data).__name__}")
        return {str(k): _read(value_type, v, f"{where}.{k}") for k, v in data.items()}
    return _read_scalar(tp, data, where)


def _read_union(tp: Any, data: Any, where: str) -> Any:
    args = get_args(tp)
    if data is None:
        if type(None) in args:
            return None
        raise SerialError(f"{where}: missing value")
    errors = []
    for arg in args:
        if arg is type(None):
            continue
        try:
            return _read(arg, data, where)
        except (SerialError, ValueError, TypeError) as exc:
            errors.append(str(exc))
    raise SerialError(f"{where}: fits none of {tp}: {'; '.join(errors)}")


def _read_dataclass(cls: type, data: Any, where: str) -> Any:
    if not isinstance(data, Mapping):
        raise SerialError(f"{where}: expected an object for {cls.__name__}, got {type(data).__name__}")
    hints = _hints(cls)
    values = {}
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        if f.name in data:
            values[f.name] = _read(hints[f.name], data[f.name], f"{where}.{f.name}")
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise SerialError(f"{where}: {cls.__name__} needs {f.name!r}")
    return cls(**values)


def _read_sequence(tp: Any, origin: Any, data: Any, where: str) -> Any:
    if not isinstance(data, list | tuple):
        raise SerialError(f"{where}: expected a list, got {type(data).__name__}")
    args = get_args(tp)
    if origin is tuple and args and args[-1] is not Ellipsis:
        items = [_read(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, data, strict=True))]
    else:
        item_type = args[0] if args else Any
        items = [_read(item_type, v, f"{where}[{i}]") for i, v in enumerate(data)]
    return origin(items)


def _read_scalar(tp: Any, data: Any, where: str) -> Any:
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        try:
            return tp(data)
        except ValueError:
            valid = ", ".join(str(m.value) for m in tp)
            raise SerialError(f"{where}: {data!r} is not a {tp.__name__} ({valid})") from None
    if tp is datetime:
        return datetime.fromisoformat(data) if isinstance(data, str) else _wrong(tp, data, where)
    if tp is date:
        return date.fromisoformat(data) if isinstance(data, str) else _wrong(tp, data, where)
    if tp is Decimal:
        return Decimal(str(data))
    if tp is float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            _wrong(tp, data, where)
        return float(data)
    if tp in (str, int, bool) and not (type(data) is tp or (tp is int and type(data) is int)):
        _wrong(tp, data, where)
    return data


def _wrong(tp: Any, data: Any, where: str) -> Any:
    raise SerialError(f"{where}: expected {getattr(tp, '__name__', tp)}, got {type(data).__name__}")
