"""Figures and dates as a claim or a source writes them, normalised so the two can be compared.

Used by :func:`citewise.verify.support.check_support` (rules 3 and 4: figures, dates), by the
scope rule in :mod:`citewise.verify.qualifiers` and by :mod:`citewise.verify.conflicts`.

- :func:`figures` finds the numbers of a text with their units and normalises them: digits,
  commas and full-width forms; number words (six → 6); simple Korean numerals (삼십 일, 석 달,
  두 명); Korean fractions as percentages (20분의 1 → 5%); multipliers (천, 만, 억, thousand,
  million); and unit families (% / percent / 퍼센트; 원 / 만원 / 억원; years as 12 months; weeks
  as 7 days). Dates, article references (제3조, 2항) and list numbering are not figures.
- :meth:`Figure.matches` compares two figures by value within their unit family.
- :func:`unsourced_particulars` lists the figures, dates and article numbers (제N조, Art. 4) a
  text states that a page does not hold.
- :func:`date_parts` reads a date as ``(year, month, day)``; :func:`date_supported` accepts a
  claimed date when some candidate date is at least as specific and agrees on every part given.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final

from citewise.verify.claims import DATE_PATTERN, NUMBER_PATTERN, PARAGRAPH_MARKS

__all__ = [
    "Figure",
    "as_digits",
    "date_parts",
    "date_supported",
    "figures",
    "identifiers",
    "page_versions",
    "parse_figure",
    "unsourced_particulars",
]

_NUMBER_WORDS: Final = {
    word: str(i)
    for i, word in enumerate(
        "two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen"
        " sixteen seventeen eighteen nineteen twenty".split(),
        start=2,
    )
} | {w: str(10 * (i + 3)) for i, w in enumerate("thirty forty fifty sixty seventy eighty ninety".split())}
# Not "one": "one of the", "one way" are rarely the figure 1. Nor a count after a determiner ("its
# two parts", "one of the two"): it counts what the sentence has just named, it states no figure.
_NUMBER_WORD = re.compile(
    r"(?<!\bthe )(?<!\bits )(?<!\btheir )(?<!\bthese )(?<!\bthose )\b(" + "|".join(_NUMBER_WORDS) + r")\b",
    re.IGNORECASE,
)


_EVERY_PERIOD = re.compile(r"매(월|달|년|해)(?=\s)")
"""매월 1회 is once a month: "매월" names the period 1달 that "한 달에 한 번" names."""
_PERIODS: Final = {"월": "1달", "달": "1달", "년": "1년", "해": "1년"}
_IDENTIFIER = re.compile(r"\b(PEP|RFC|bpo|gh|issue|CVE-\d{4})[\s-]?(\d+)\b", re.IGNORECASE)


def identifiers(text: str) -> frozenset[tuple[str, str]]:
    """Document numbers of ``text`` as (kind, number): "PEP 681" → ("pep", "681").

    >>> sorted(identifiers("See PEP 681 and RFC 3986 (gh-91860)."))
    [('gh', '91860'), ('pep', '681'), ('rfc', '3986')]
    """
    return frozenset((m.group(1).lower(), m.group(2)) for m in _IDENTIFIER.finditer(text))


def as_digits(text: str) -> str:
    """Number words, simple Korean numerals and Korean fractions written as digits.

    >>> as_digits("six episodes, 석 달, 20분의 1")
    '6 episodes, 3달, 5%'
    """
    text = _EVERY_PERIOD.sub(lambda m: _PERIODS[m.group(1)], text)
    return _fractions_as_percent(_with_digits(text))


def _with_digits(text: str) -> str:
    """Number words as digits (six → 6, 석 달 → 3달), so "six episodes" matches "6"."""
    return _with_arabic_numerals(_NUMBER_WORD.sub(lambda m: _NUMBER_WORDS[m.group().lower()], text))


_UNIT_FAMILIES: Final[dict[str, tuple[str, float]]] = {
    "%": ("%", 1),
    "percent": ("%", 1),
    "per cent": ("%", 1),
    "퍼센트": ("%", 1),
    "원": ("KRW", 1),
    "won": ("KRW", 1),
    "만원": ("KRW", 1e4),
    "억원": ("KRW", 1e8),
    "조원": ("KRW", 1e12),
    "dollar": ("USD", 1),
    "dollars": ("USD", 1),
    "일분": ("days' worth", 1),
    "일": ("day", 1),
    "day": ("day", 1),
    "days": ("day", 1),
    "주": ("day", 7),
    "week": ("day", 7),
    "weeks": ("day", 7),
    "개월": ("month", 1),
    "달": ("month", 1),
    "month": ("month", 1),
    "months": ("month", 1),
    "년": ("month", 12),
    "year": ("month", 12),
    "years": ("month", 12),
    "시간": ("hour", 1),
    "hour": ("hour", 1),
    "hours": ("hour", 1),
    "명": ("person", 1),
    "people": ("person", 1),
    "persons": ("person", 1),
    "person": ("person", 1),
    "배": ("times", 1),
    "times": ("times", 1),
    "세": ("age", 1),
    "살": ("age", 1),
    "회": ("occurrence", 1),
    "번": ("occurrence", 1),
    "차례": ("occurrence", 1),
}
_MULTIPLIERS: Final = {"천": 1e3, "백": 1e2, "만": 1e4, "억": 1e8, "조": 1e12}
_SCALE_WORDS: Final = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12, "hundred": 1e2}
_CURRENCY: Final = {"$": "USD", "₩": "KRW", "€": "EUR", "£": "GBP"}


@dataclass(frozen=True, slots=True)
class Figure:
    """A number as written, its value and its unit family (``None``: a bare number)."""

    text: str
    value: float
    unit: str | None

    def matches(self, other: Figure) -> bool:
        """Same value, and the same unit family unless one of them is bare."""
        same_unit = self.unit is None or other.unit is None or self.unit == other.unit
        return same_unit and abs(self.value - other.value) <= 1e-9 * max(1.0, abs(self.value))


_NATIVE: Final = {
    "한": 1,
    "두": 2,
    "세": 3,
    "석": 3,
    "넉": 4,
    "네": 4,
    "다섯": 5,
    "여섯": 6,
    "일곱": 7,
    "여덟": 8,
    "아홉": 9,
    "열": 10,
}
_NATIVE_RE = re.compile(
    r"(?<![가-힣])(다섯|여섯|일곱|여덟|아홉|한|두|세|석|넉|네|열)\s?(?=(?:달|명|해|배|시간|번|사람)(?![가-힣]{2})|차례)"
)
_SINO_DIGITS: Final = {"일": 1, "이": 2, "삼": 3, "사": 4, "오": 5, "육": 6, "칠": 7, "팔": 8, "구": 9}
_SINO_RE = re.compile(
    r"(?<![가-힣])([일이삼사오육칠팔구]?십[일이삼사오육칠팔구]?|[일이삼사오육칠팔구]?백)\s?(?=일|개월|년|퍼센트|명|세)"
)


def _sino_value(word: str) -> int:
    total, digit = 0, 0
    for char in word:
        if char in _SINO_DIGITS:
            digit = _SINO_DIGITS[char]
        else:
            total += (digit or 1) * (10 if char == "십" else 100)
            digit = 0
    return total + digit


def _with_arabic_numerals(text: str) -> str:
    """Simple Korean numerals before a counter written in digits: 석 달 → 3달, 삼십일 → 30일."""
    text = _NATIVE_RE.sub(lambda m: str(_NATIVE[m.group(1)]), text)
    return _SINO_RE.sub(lambda m: str(_sino_value(m.group(1))), text)


def parse_figure(raw: str) -> Figure | None:
    """One figure as written ("1,200만원", "$3 million", "2 years"), or None when it holds no number."""
    text = raw.strip()
    currency = _CURRENCY.get(text[:1])
    body = text[1:].strip() if currency else text
    number = re.match(r"\d[\d,]*(?:\.\d+)?", body)
    if number is None:
        return None
    value = float(number.group().replace(",", ""))
    rest = body[number.end() :].strip().lower()
    for char in list(rest):
        if char in _MULTIPLIERS and not rest.startswith(("만원", "억원", "조원")):
            value *= _MULTIPLIERS[char]
            rest = rest[1:].strip()
        else:
            break
    unit: str | None = currency
    words = rest.split()
    if words and words[0] in _SCALE_WORDS:
        value *= _SCALE_WORDS[words[0]]
        words = words[1:]
    rest = " ".join(words)
    if rest in _UNIT_FAMILIES:
        family, scale = _UNIT_FAMILIES[rest]
        unit, value = family, value * scale
    elif rest.rstrip("s") in _UNIT_FAMILIES:
        family, scale = _UNIT_FAMILIES[rest.rstrip("s")]
        unit, value = family, value * scale
    elif rest:
        unit = unit or rest
    return Figure(raw.strip(), value, unit)


_FRACTION = re.compile(r"(\d+)\s?분의\s?(\d+)")


def _fractions_as_percent(text: str) -> str:
    """Korean fractions as percentages: 20분의 1 → 5%, 100분의 50 → 50%."""
    return _FRACTION.sub(lambda m: f"{int(m.group(2)) / int(m.group(1)) * 100:g}%", text)


def figures(text: str) -> list[Figure]:
    """The figures of ``text`` with normalised values (dates and article numbers excluded).

    >>> [(f.value, f.unit) for f in figures("석 달, 삼십일, 1,200만원, 2년, 5천만원 이하, 3.5 percent, 20분의 1")]
    ... # doctest: +NORMALIZE_WHITESPACE
    [(3.0, 'month'), (30.0, 'day'), (12000000.0, 'KRW'), (24.0, 'month'), (50000000.0, 'KRW'), (3.5, '%'),
     (5.0, '%')]
    """
    text = as_digits(unicodedata.normalize("NFKC", PARAGRAPH_MARKS.sub(" ", text)))
    text = re.sub(r"(\d)\s?천\s?(만\s?원|원|만)", r"\1천\2", text)
    found: list[Figure] = []
    for _start, raw in sorted(_figure_strings(text)):
        figure = parse_figure(raw)
        if figure is not None:
            found.append(figure)
    return found


_KO_MULTIPLIED = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s?(천)?\s?(만|억|조)?\s?(원|명)")


def _figure_strings(text: str) -> Iterator[tuple[int, str]]:
    taken = [m.span() for m in DATE_PATTERN.finditer(text)]
    for match in _KO_MULTIPLIED.finditer(text):
        if (match.group(2) or match.group(3)) and not any(a <= match.start() < b for a, b in taken):
            taken.append(match.span())
            yield match.start(), match.group(1) + (match.group(2) or "") + (match.group(3) or "") + match.group(4)
    for match in NUMBER_PATTERN.finditer(text):
        start, end = match.span()
        if any(a <= start < b or a < end <= b for a, b in taken):
            continue
        if re.search(r"제\s?$", text[max(0, start - 2) : start]) or re.match(r"\s?(?:조|항|호|장|절|목)", text[end:]):
            continue  # article references (제3조, 2항) are not figures
        if re.search(r"조\s?의\s?$", text[max(0, start - 4) : start]) or (
            match.group().endswith("조") and re.match(r"\s?의\s?\d", text[end:])
        ):
            continue  # nor is a branch article's number (제6조의2, 6조의2)
        if re.match(r"[.)]\s", text[end : end + 2]) and re.search(r"(?:^|\n)\s*$", text[:start]):
            continue  # list numbering

        yield start, match.group()


# -- dates --------------------------------------------------------------------------------------------

_MONTH_NUMBERS: Final = {
    name: i
    for i, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ),
        start=1,
    )
    for name in names
}


def date_parts(raw: str) -> tuple[int | None, int | None, int | None]:
    """``(year, month, day)`` of a date as written; parts not given are None.

    >>> date_parts("2020. 3. 24."), date_parts("March 2023"), date_parts("3월 1일")
    ((2020, 3, 24), (2023, 3, None), (None, 3, 1))
    """
    numbers = [int(n) for n in re.findall(r"\d+", raw)]
    month_name = next((_MONTH_NUMBERS[w] for w in re.findall(r"[a-z]+", raw.lower()) if w in _MONTH_NUMBERS), None)
    year = next((n for n in numbers if n >= 1000), None)
    rest = [n for n in numbers if n < 1000]
    if month_name is not None:
        return year, month_name, rest[0] if rest else None
    if year is None and "월" in raw:
        return None, rest[0] if rest else None, rest[1] if len(rest) > 1 else None
    return year, rest[0] if rest else None, rest[1] if len(rest) > 1 else None


def date_supported(claim_date: str, span_dates: list[str]) -> bool:
    """Whether some date of ``span_dates`` agrees with every part ``claim_date`` gives.

    >>> date_supported("March 2023", ["2023. 3. 24."]), date_supported("2023. 3. 24.", ["March 2023"])
    (True, False)
    """
    wanted = date_parts(claim_date)
    for candidate in span_dates:
        have = date_parts(candidate)
        if all(w is None or w == h for w, h in zip(wanted, have, strict=True)):
            return True
    return False


_VERSION = re.compile(
    r"(?<![\w./-])(?:([A-Z][A-Za-z]+)\s)?v?(\d{1,2}\.\d{1,2})(\.\d{1,3})?(?![\d.]*\d)|/(\d{1,2}\.\d{1,2})/"
)
"""A version a page's address or origin names: "Python 3.11.2", "docs.python.org/3.11/"."""


def page_versions(source: str) -> str:
    """The versions ``source`` (a page's URL or a document's origin) names, as text a claim may
    repeat though the page's text does not: the product with its major.minor version and that
    version alone ("Python 3.11 3.11"); empty when it names none. A patch number is left out: its
    digits ("3.11.2") would read as the figure 2.

    >>> page_versions("python-docs whatsnew/3.11.rst (Python 3.11.2, PSF License)")
    'Python 3.11 3.11'
    >>> page_versions("https://docs.python.org/3.11/library/http.client.html")
    '3.11'
    >>> page_versions("근로기준법 제24조 (법률, 2024-10-22, MST265959)")
    ''
    """
    found: list[str] = []
    for match in _VERSION.finditer(source):
        product, version, _patch, in_path = match.groups()
        version = version or in_path
        found += [f"{product} {version}", version] if product else [version]
    return " ".join(dict.fromkeys(found))


_ARTICLE_REF = re.compile(
    r"제\s*\d+\s*조(?:\s*의\s*\d+)?|\b(?:Art(?:icle)?|Sec(?:tion)?|§)\.?\s*\d+[a-z]?", re.IGNORECASE
)


def _articles(text: str) -> set[str]:
    return {re.sub(r"[\s.]+|(?<=art)icle|(?<=sec)tion", "", m.group().lower()) for m in _ARTICLE_REF.finditer(text)}


def unsourced_particulars(text: str, page_text: str) -> tuple[str, ...]:
    """The figures, dates and article numbers ``text`` states that ``page_text`` does not hold
    (figures compared by value within their unit family, dates part by part).

    >>> unsourced_particulars("14일 이내에 지급해야 합니다 (제13조).", "제13조 … 14일 이내에 지급하여야 한다.")
    ()
    >>> unsourced_particulars("Pay within 30 days under Art. 5 by 2024.", "Pay within 14 days under Art. 4.")
    ('30 days', '2024', 'art5')
    """
    text, page_text = (unicodedata.normalize("NFKC", t) for t in (text, page_text))
    have = figures(_ARTICLE_REF.sub(" ", page_text))
    missing = [f.text for f in figures(_ARTICLE_REF.sub(" ", text)) if not any(f.matches(h) for h in have)]
    page_dates = [m.group() for m in DATE_PATTERN.finditer(page_text)]
    missing += [m.group().strip() for m in DATE_PATTERN.finditer(text) if not date_supported(m.group(), page_dates)]
    missing += sorted(_articles(text) - _articles(page_text))
    return tuple(dict.fromkeys(missing))
