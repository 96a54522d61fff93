# ruff: noqa: E501  (data: one claim or passage a line)
"""Seventh held-out seeds for ``make_support_pairs.py`` (split ``heldout7``): written and committed
before any rule change of the sixth pass, from passages used by no other split and by no row of
``kr_support_pairs.jsonl``, and measured once, at the end. Never used to choose a rule.

Both sets (``human``: short FEVER-like claims; ``model``: answer-style sentences), weighted to
perturbations (names, role swaps, conditions, contrasts, negations, additions), with two or three
faithful paraphrases a passage (the generator adds one ``unrelated`` claim a passage).

Evidence: Python 3.11 documentation (urllib.parse unquote, urlencode; ipaddress
summarize_address_range, get_mixed_type_key, v4_int_to_packed; PSF License; reST markup dropped,
examples left out), 근로기준법 제21조, 제22조, 제42조, 제71조, 제72조 (public domain,
저작권법 제7조; Markdown escapes dropped). Each claim: (set, kind, label, claim).
"""

KB = "근로기준법 {} (법률, 2024-10-22, MST265959; public domain, 저작권법 제7조)"
PY = "python-docs {} (Python 3.11.2, PSF License)"

SEEDS = [
    {
        "origin": PY.format("library/urllib.parse.rst"),
        "lang": "en",
        "question": "What does urllib.parse.unquote do?",
        "evidence": "unquote(string, encoding='utf-8', errors='replace'): Replace %xx escapes with their single-character equivalent. The optional encoding and errors parameters specify how to decode percent-encoded sequences into Unicode characters, as accepted by the bytes.decode() method. string may be either a str or a bytes object. encoding defaults to 'utf-8'. errors defaults to 'replace', meaning invalid sequences are replaced by a placeholder character. Changed in version 3.9: string parameter supports bytes and str objects (previously only str).",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "unquote turns %xx escapes back into the single characters they stand for.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "According to the documentation, since Python 3.9 unquote() accepts a bytes object as well as a str; before that only str was allowed.",
            ),
            (
                "model",
                "condition",
                "unsupported",
                "According to the docs, unquote() replaces invalid percent-encoded sequences with a placeholder character only when errors is set to 'strict'.",
            ),
            ("human", "negation", "unsupported", "unquote does not accept bytes objects, only str."),
            (
                "human",
                "paraphrase",
                "supported",
                "By default unquote decodes with utf-8 and replaces invalid sequences with a placeholder.",
            ),
            (
                "model",
                "name",
                "unsupported",
                "In short, unquote() decodes percent-encoded sequences using the codecs.decode() function, with encoding defaulting to 'latin-1'.",
            ),
        ],
    },
    {
        "origin": PY.format("library/urllib.parse.rst"),
        "lang": "en",
        "question": "How does urlencode quote a query?",
        "evidence": "urlencode(query, doseq=False, safe='', encoding=None, errors=None, quote_via=quote_plus): Convert a mapping object or a sequence of two-element tuples, which may contain str or bytes objects, to a percent-encoded ASCII text string. If the resultant string is to be used as a data for POST operation with the urlopen() function, then it should be encoded to bytes, otherwise it would result in a TypeError. The resulting string is a series of key=value pairs separated by '&' characters, where both key and value are quoted using the quote_via function. By default, quote_plus() is used to quote the values, which means spaces are quoted as a '+' character and '/' characters are encoded as %2F, which follows the standard for GET requests (application/x-www-form-urlencoded). An alternate function that can be passed as quote_via is quote(), which will encode spaces as %20 and not encode '/' characters.",
        "claims": [
            ("human", "paraphrase", "supported", "By default urlencode quotes spaces as '+' and encodes '/' as %2F."),
            (
                "model",
                "paraphrase",
                "supported",
                "The documentation says that if you pass quote() as quote_via, urlencode() encodes spaces as %20 and leaves '/' characters alone.",
            ),
            (
                "model",
                "role_swap",
                "unsupported",
                "According to the docs, urlencode() uses quote() by default, and quote_plus() is the alternative you can pass as quote_via to get '+' for spaces.",
            ),
            (
                "human",
                "contrast",
                "unsupported",
                "urlencode output can be passed to urlopen as POST data as a str, unlike GET requests, which need bytes.",
            ),
            (
                "model",
                "addition",
                "unsupported",
                "In short, urlencode() returns a series of key=value pairs separated by '&', and it sorts the keys alphabetically before joining them.",
            ),
        ],
    },
    {
        "origin": PY.format("library/ipaddress.rst"),
        "lang": "en",
        "question": "What does summarize_address_range return and when does it fail?",
        "evidence": "summarize_address_range(first, last): Return an iterator of the summarized network range given the first and last IP addresses. first is the first IPv4Address or IPv6Address in the range and last is the last IPv4Address or IPv6Address in the range. A TypeError is raised if first or last are not IP addresses or are not of the same version. A ValueError is raised if last is not greater than first or if first address version is not 4 or 6.",
        "claims": [
            (
                "model",
                "paraphrase",
                "supported",
                "According to the ipaddress docs, summarize_address_range() takes the first and last addresses of a range and returns an iterator over the networks that summarize it.",
            ),
            (
                "human",
                "paraphrase",
                "supported",
                "summarize_address_range raises TypeError when first and last are of different IP versions.",
            ),
            (
                "model",
                "role_swap",
                "unsupported",
                "The documentation says a ValueError is raised if first is not greater than last.",
            ),
            (
                "human",
                "name",
                "unsupported",
                "summarize_address_range raises a ValueError if first or last is not an IP address.",
            ),
            (
                "model",
                "negation",
                "unsupported",
                "In short, summarize_address_range() accepts a last address that comes before first and simply returns an empty iterator.",
            ),
        ],
    },
    {
        "origin": PY.format("library/ipaddress.rst"),
        "lang": "en",
        "question": "How can addresses and networks be sorted together?",
        "evidence": "get_mixed_type_key(obj): Return a key suitable for sorting between networks and addresses. Address and Network objects are not sortable by default; they're fundamentally different, so the expression IPv4Address('192.0.2.0') <= IPv4Network('192.0.2.0/24') doesn't make sense. There are some times however, where you may wish to have ipaddress sort these anyway. If you need to do this, you can use this function as the key argument to sorted(). obj is either a network or address object.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "get_mixed_type_key can be passed as the key argument to sorted() to sort networks and addresses together.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "According to the documentation, address and network objects cannot be sorted together by default, because comparing an address with a network does not make sense.",
            ),
            (
                "model",
                "contrast",
                "unsupported",
                "The docs say address and network objects are sortable together by default, so get_mixed_type_key() is only needed for speed.",
            ),
            (
                "human",
                "name",
                "unsupported",
                "get_mixed_type_key is meant to be used as the key argument to list.sort() and max().",
            ),
            (
                "model",
                "addition",
                "unsupported",
                "In short, get_mixed_type_key() returns a key that orders every network before every address, whatever their values.",
            ),
        ],
    },
    {
        "origin": PY.format("library/ipaddress.rst"),
        "lang": "en",
        "question": "What does v4_int_to_packed do?",
        "evidence": "v4_int_to_packed(address): Represent an address as 4 packed bytes in network (big-endian) order. address is an integer representation of an IPv4 IP address. A ValueError is raised if the integer is negative or too large to be an IPv4 IP address.",
        "claims": [
            (
                "model",
                "paraphrase",
                "supported",
                "According to the docs, v4_int_to_packed() turns an integer IPv4 address into 4 bytes in big-endian network order.",
            ),
            ("human", "paraphrase", "supported", "v4_int_to_packed raises ValueError for a negative integer."),
            (
                "model",
                "condition",
                "unsupported",
                "The documentation says v4_int_to_packed() raises a ValueError only if the integer is negative; larger values wrap around.",
            ),
            (
                "human",
                "number",
                "unsupported",
                "v4_int_to_packed packs an address into 6 bytes in little-endian order.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "In short, v4_int_to_packed() refuses integers too large to be an IPv4 address by raising a ValueError.",
            ),
        ],
    },
    {
        "origin": KB.format("제21조"),
        "lang": "ko",
        "question": "사용자가 전차금을 임금과 상계할 수 있나요?",
        "evidence": "제21조 (전차금 상계의 금지) 사용자는 전차금(前借金)이나 그 밖에 근로할 것을 조건으로 하는 전대(前貸)채권과 임금을 상계하지 못한다.",
        "claims": [
            ("human", "paraphrase", "supported", "사용자는 근로를 조건으로 미리 빌려준 돈을 임금에서 상계할 수 없다."),
            (
                "model",
                "paraphrase",
                "supported",
                "근로기준법 제21조에 따르면, 사용자는 전차금이나 근로할 것을 조건으로 하는 전대채권을 임금과 상계하지 못합니다.",
            ),
            (
                "model",
                "condition",
                "unsupported",
                "근로기준법에 따르면, 근로자가 동의한 경우에는 사용자가 전차금을 임금과 상계할 수 있습니다.",
            ),
            ("human", "role_swap", "unsupported", "근로자는 전차금을 사용자의 채권과 상계하지 못한다."),
        ],
    },
    {
        "origin": KB.format("제22조"),
        "lang": "ko",
        "question": "사용자가 근로자의 저축을 관리할 수 있나요?",
        "evidence": "제22조 (강제 저금의 금지) ① 사용자는 근로계약에 덧붙여 강제 저축 또는 저축금의 관리를 규정하는 계약을 체결하지 못한다. ② 사용자가 근로자의 위탁으로 저축을 관리하는 경우에는 다음 각 호의 사항을 지켜야 한다. 1. 저축의 종류ㆍ기간 및 금융기관을 근로자가 결정하고, 근로자 본인의 이름으로 저축할 것 2. 근로자가 저축증서 등 관련 자료의 열람 또는 반환을 요구할 때에는 즉시 이에 따를 것",
        "claims": [
            ("human", "paraphrase", "supported", "근로계약에 강제 저축을 정하는 계약을 덧붙이는 것은 금지된다."),
            (
                "model",
                "paraphrase",
                "supported",
                "근로기준법 제22조에 따르면, 근로자의 위탁으로 저축을 관리할 때에는 근로자 본인 이름으로 저축해야 합니다.",
            ),
            (
                "model",
                "role_swap",
                "unsupported",
                "근로기준법에 따르면, 사용자가 근로자의 저축을 관리할 때 저축의 종류와 기간, 금융기관은 사용자가 정합니다.",
            ),
            ("human", "number", "unsupported", "근로자가 저축증서의 반환을 요구하면 사용자는 7일 이내에 따라야 한다."),
            (
                "model",
                "negation",
                "unsupported",
                "근로기준법 제22조에 따르면, 근로자가 저축증서의 열람을 요구하더라도 사용자는 이에 따를 의무가 없습니다.",
            ),
        ],
    },
    {
        "origin": KB.format("제42조"),
        "lang": "ko",
        "question": "근로자 명부는 얼마나 보존해야 하나요?",
        "evidence": "제42조 (계약 서류의 보존) 사용자는 근로자 명부와 대통령령으로 정하는 근로계약에 관한 중요한 서류를 3년간 보존하여야 한다.",
        "claims": [
            ("human", "paraphrase", "supported", "사용자는 근로자 명부를 3년 동안 보관해야 한다."),
            (
                "model",
                "number",
                "unsupported",
                "근로기준법 제42조에 따르면, 사용자는 근로자 명부와 근로계약에 관한 중요한 서류를 5년간 보존해야 합니다.",
            ),
            ("human", "name", "unsupported", "근로계약에 관한 중요한 서류의 범위는 고용노동부령으로 정한다."),
            (
                "model",
                "paraphrase",
                "supported",
                "근로기준법에 따르면 사용자는 근로자 명부뿐 아니라 대통령령으로 정하는 근로계약 관련 중요 서류도 3년간 보존할 의무가 있습니다.",
            ),
        ],
    },
    {
        "origin": KB.format("제71조"),
        "lang": "ko",
        "question": "산후 1년이 지나지 않은 여성의 시간외근로 한도는?",
        "evidence": "제71조 (시간외근로) 사용자는 산후 1년이 지나지 아니한 여성에 대하여는 단체협약이 있는 경우라도 1일에 2시간, 1주에 6시간, 1년에 150시간을 초과하는 시간외근로를 시키지 못한다.",
        "claims": [
            (
                "model",
                "paraphrase",
                "supported",
                "근로기준법 제71조에 따르면, 출산 후 1년이 안 된 여성에게는 단체협약이 있더라도 하루 2시간, 주 6시간, 연 150시간을 넘는 시간외근로를 시킬 수 없습니다.",
            ),
            (
                "human",
                "condition",
                "unsupported",
                "단체협약이 있으면 산후 1년이 지나지 않은 여성에게도 1일 2시간을 넘는 시간외근로를 시킬 수 있다.",
            ),
            (
                "human",
                "paraphrase",
                "supported",
                "산후 1년이 지나지 않은 여성의 시간외근로는 1년에 150시간을 넘을 수 없다.",
            ),
            (
                "human",
                "number",
                "unsupported",
                "산후 1년이 지나지 아니한 여성의 시간외근로는 1주에 12시간을 넘지 못한다.",
            ),
            (
                "model",
                "addition",
                "unsupported",
                "근로기준법에 따르면, 산후 1년이 지나지 아니한 여성에게 시간외근로를 시키려면 본인의 서면 동의도 받아야 합니다.",
            ),
        ],
    },
    {
        "origin": KB.format("제72조"),
        "lang": "ko",
        "question": "여성을 갱내에서 근로시킬 수 있나요?",
        "evidence": "제72조 (갱내근로의 금지) 사용자는 여성과 18세 미만인 사람을 갱내(坑內)에서 근로시키지 못한다. 다만, 보건ㆍ의료, 보도ㆍ취재 등 대통령령으로 정하는 업무를 수행하기 위하여 일시적으로 필요한 경우에는 그러하지 아니하다.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "보도나 취재처럼 대통령령으로 정하는 업무로 일시적으로 필요하면 여성도 갱내에서 일하게 할 수 있다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "근로기준법 제72조에 따르면, 사용자는 원칙적으로 여성과 18세 미만인 사람에게 갱내 근로를 시킬 수 없습니다.",
            ),
            (
                "model",
                "number",
                "unsupported",
                "근로기준법에 따르면, 사용자는 여성과 20세 미만인 사람을 갱내에서 근로시키지 못합니다.",
            ),
            (
                "human",
                "contrast",
                "unsupported",
                "갱내근로 금지는 18세 미만인 사람에게만 적용되고 성인 여성에게는 적용되지 않는다.",
            ),
        ],
    },
]
