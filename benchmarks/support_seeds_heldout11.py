# ruff: noqa: E501  (data: one claim or passage a line)
"""Eleventh held-out seeds for ``make_support_pairs.py`` (split ``heldout11``): written and committed
before any change of the twelfth pass (guards for swapped roles, dates and periods, conditions and
scope), from passages used by no other split and by no row of ``kr_support_pairs.jsonl``. Never
used to fit, weigh or choose anything; run once, at the end of the pass, by name.

Every passage is copied from the shared corpora (``/work/shared/corpora``), not written from
memory: the English ones from the reStructuredText of the Python 3.11.2 documentation (Debian
``python3.11-doc``, PSF License) with the markup rendered the way Sphinx prints it (``:func:`x```
as ``x()``, ``*arg*`` as ``arg``, ``:issue:`n``` as ``bpo-n``), the Korean ones from the
legalize-kr Markdown of law.go.kr texts (public domain, 저작권법 제7조), with ``**①**`` as ``①`` and
the ``<개정 …>``/``<신설 …>`` revision marks dropped; where a passage takes some paragraphs of an
article, its origin names them. ``benchmarks/data/README.md`` gives the file and lines of each.

Every perturbation kind beside faithful paraphrases: negation, number, date, name, role_swap,
proviso, condition, article, scope; Korean passages weighted to swapped parties (임대인/임차인,
사용자/근로자, 조정위원회/당사자), dates and periods (``2018. 9. 1.``, ``60일 이내``, ``지체 없이``)
and conditions (``~한 경우``, ``다만``, ``요청하면``). The generator adds one ``unrelated`` claim a
passage. Each claim: (set, kind, label, claim).
"""

KB = "근로기준법 {} (법률, 2024-10-22, MST265959; public domain, 저작권법 제7조)"
HL = "주택임대차보호법 {} (법률, 2025-10-01, MST276291; public domain, 저작권법 제7조)"
PY = "python-docs {} (Python 3.11.2, PSF License)"

SEEDS = [
    {
        "origin": PY.format("library/urllib.parse.rst"),
        "lang": "en",
        "question": "When does urlsplit raise ValueError?",
        "evidence": "urlsplit(urlstring, scheme='', allow_fragments=True): This is similar to urlparse(), but does not split the params from the URL. Reading the port attribute will raise a ValueError if an invalid port is specified in the URL. Unmatched square brackets in the netloc attribute will raise a ValueError. Characters in the netloc attribute that decompose under NFKC normalization (as used by the IDNA encoding) into any of /, ?, #, @, or : will raise a ValueError. If the URL is decomposed before parsing, no error will be raised. Changed in version 3.6: Out-of-range port numbers now raise ValueError, instead of returning None. Changed in version 3.8: Characters that affect netloc parsing under NFKC normalization will now raise ValueError.",
        "claims": [
            ("human", "paraphrase", "supported", "urlsplit is like urlparse but does not split the params from the URL."),
            ("model", "paraphrase", "supported", "urlsplit itself does not complain about a bad port: the ValueError comes when you read the port attribute of the result. Since Python 3.6 an out-of-range port number raises ValueError instead of returning None."),
            ("human", "paraphrase", "supported", "Unmatched square brackets in the netloc make urlsplit raise a ValueError."),
            ("human", "date", "unsupported", "Since Python 3.7, out-of-range port numbers in urlsplit raise ValueError instead of returning None."),
            ("model", "negation", "unsupported", "Note that unmatched square brackets in the netloc do not raise an error; urlsplit keeps them as they are."),
            ("model", "condition", "unsupported", "Characters that decompose under NFKC normalization into / or @ raise a ValueError only if the URL was decomposed before parsing."),
            ("human", "scope", "unsupported", "Reading any attribute of a urlsplit result raises ValueError when the port is invalid."),
            ("human", "name", "unsupported", "Reading the port attribute of a urlsplit result raises a TypeError if an invalid port is specified."),
        ],
    },
    {
        "origin": PY.format("library/urllib.parse.rst"),
        "lang": "en",
        "question": "Does urlunsplit give back the original URL?",
        "evidence": "urlunsplit(parts): Combine the elements of a tuple as returned by urlsplit() into a complete URL as a string. The parts argument can be any five-item iterable. This may result in a slightly different, but equivalent URL, if the URL that was parsed originally had unnecessary delimiters (for example, a ? with an empty query; the RFC states that these are equivalent). quote_from_bytes(bytes, safe='/'): Like quote(), but accepts a bytes object rather than a str, and does not perform string-to-bytes encoding. Example: quote_from_bytes(b'a&\\xef') yields 'a%26%EF'.",
        "claims": [
            ("human", "paraphrase", "supported", "urlunsplit combines the elements of a tuple returned by urlsplit into a complete URL string."),
            ("model", "paraphrase", "supported", "urlunsplit accepts any five-item iterable. If the original URL had unnecessary delimiters, such as a ? with an empty query, the rebuilt URL can differ slightly from it while remaining equivalent."),
            ("human", "paraphrase", "supported", "quote_from_bytes takes a bytes object instead of a str and does no string-to-bytes encoding."),
            ("human", "number", "unsupported", "The parts argument of urlunsplit can be any six-item iterable."),
            ("model", "negation", "unsupported", "urlunsplit always gives back exactly the URL that was parsed, character for character, even when it had unnecessary delimiters."),
            ("human", "role_swap", "unsupported", "urlunsplit splits a URL string into the five elements that urlsplit combines."),
            ("model", "name", "unsupported", "quote_from_bytes works like quote but accepts a bytearray rather than a str."),
            ("human", "condition", "unsupported", "quote_from_bytes performs string-to-bytes encoding whenever an encoding is given."),
        ],
    },
    {
        "origin": PY.format("library/http.client.rst"),
        "lang": "en",
        "question": "When does http.client raise RemoteDisconnected?",
        "evidence": "exception http.client.BadStatusLine: A subclass of HTTPException. Raised if a server responds with a HTTP status code that we don't understand. exception http.client.LineTooLong: A subclass of HTTPException. Raised if an excessively long line is received in the HTTP protocol from the server. exception http.client.RemoteDisconnected: A subclass of ConnectionResetError and BadStatusLine. Raised by HTTPConnection.getresponse() when the attempt to read the response results in no data read from the connection, indicating that the remote end has closed the connection. New in version 3.5: Previously, BadStatusLine('') was raised.",
        "claims": [
            ("human", "paraphrase", "supported", "RemoteDisconnected is raised when reading the response gets no data because the remote end closed the connection."),
            ("model", "paraphrase", "supported", "If the server hangs up before sending anything back, HTTPConnection.getresponse() raises RemoteDisconnected, which is both a ConnectionResetError and a BadStatusLine. Before Python 3.5 you would have seen BadStatusLine('') instead."),
            ("human", "paraphrase", "supported", "http.client raises LineTooLong when the server sends an excessively long line."),
            ("human", "date", "unsupported", "RemoteDisconnected was added in Python 3.4."),
            ("human", "role_swap", "unsupported", "BadStatusLine is a subclass of RemoteDisconnected."),
            ("model", "name", "unsupported", "RemoteDisconnected is raised by HTTPConnection.request() when the attempt to read the response yields no data."),
            ("model", "condition", "unsupported", "In practice http.client raises BadStatusLine whenever a server answers with any status code other than 200."),
            ("human", "negation", "unsupported", "RemoteDisconnected is not a subclass of ConnectionResetError."),
        ],
    },
    {
        "origin": PY.format("library/ipaddress.rst"),
        "lang": "en",
        "question": "What is an IPv4Interface?",
        "evidence": "class ipaddress.IPv4Interface(address): Construct an IPv4 interface. The meaning of address is as in the constructor of IPv4Network, except that arbitrary host addresses are always accepted. IPv4Interface is a subclass of IPv4Address, so it inherits all the attributes from that class. In addition, the following attributes are available: ip: The address (IPv4Address) without network information. network: The network (IPv4Network) this interface belongs to. with_prefixlen: A string representation of the interface with the mask in prefix notation. with_netmask: A string representation of the interface with the network as a net mask.",
        "claims": [
            ("human", "paraphrase", "supported", "IPv4Interface is a subclass of IPv4Address and inherits all its attributes."),
            ("model", "paraphrase", "supported", "An IPv4Interface takes its address argument the way IPv4Network does, except that any host address is accepted. Its ip attribute gives the address without the network information, and network gives the IPv4Network the interface belongs to."),
            ("human", "paraphrase", "supported", "The with_prefixlen attribute of an IPv4Interface shows the mask in prefix notation."),
            ("human", "role_swap", "unsupported", "IPv4Address is a subclass of IPv4Interface."),
            ("model", "proviso", "unsupported", "IPv4Interface reads its address exactly as the IPv4Network constructor does, so an address with host bits set is refused."),
            ("human", "scope", "unsupported", "The ip attribute of an IPv4Interface holds the address together with its network information."),
            ("model", "name", "unsupported", "The network attribute of an IPv4Interface gives the IPv6Network the interface belongs to."),
            ("human", "negation", "unsupported", "IPv4Interface does not inherit the attributes of IPv4Address."),
        ],
    },
    {
        "origin": PY.format("library/asyncore.rst"),
        "lang": "en",
        "question": "Should new code use asyncore?",
        "evidence": "Deprecated since version 3.6, will be removed in version 3.12: The asyncore module is deprecated (see PEP 594 for details). Please use asyncio instead. Note: This module exists for backwards compatibility only. For new code we recommend using asyncio. This module provides the basic infrastructure for writing asynchronous socket service clients and servers. class asyncore.dispatcher_with_send: A dispatcher subclass which adds simple buffered output capability, useful for simple clients. For more sophisticated usage use asynchat.async_chat.",
        "claims": [
            ("human", "paraphrase", "supported", "asyncore is deprecated and asyncio should be used instead."),
            ("model", "paraphrase", "supported", "asyncore only remains for backwards compatibility: it has been deprecated since Python 3.6 and is slated for removal in 3.12, and the documentation recommends asyncio for new code."),
            ("human", "paraphrase", "supported", "dispatcher_with_send is a dispatcher subclass that adds simple buffered output for simple clients."),
            ("human", "date", "unsupported", "asyncore was deprecated in Python 3.4."),
            ("model", "date", "unsupported", "asyncore has been deprecated since 3.6 and will only be removed in Python 3.13, so there is still some time to migrate."),
            ("human", "role_swap", "unsupported", "dispatcher is a subclass of dispatcher_with_send."),
            ("model", "scope", "unsupported", "dispatcher_with_send is meant for sophisticated clients; simple clients should use the plain dispatcher."),
            ("human", "name", "unsupported", "For more sophisticated usage than dispatcher_with_send, the docs point to asyncio.Protocol."),
        ],
    },
    {
        "origin": PY.format("whatsnew/3.11.rst"),
        "lang": "en",
        "question": "What did Python 3.11 remove?",
        "evidence": "Due to significant security concerns, the reuse_address parameter of asyncio.loop.create_datagram_endpoint(), disabled in Python 3.9, is now entirely removed. This is because of the behavior of the socket option SO_REUSEADDR in UDP. (Contributed by Hugo van Kemenade in bpo-45129.) Removed the binhex module, deprecated in Python 3.9. Also removed the related, similarly-deprecated binascii functions: binascii.a2b_hqx() binascii.b2a_hqx() binascii.rlecode_hqx() binascii.rldecode_hqx()",
        "claims": [
            ("human", "paraphrase", "supported", "Python 3.11 removed the binhex module."),
            ("model", "paraphrase", "supported", "The reuse_address parameter of asyncio's loop.create_datagram_endpoint() had already been disabled in Python 3.9, and 3.11 removes it entirely because of how SO_REUSEADDR behaves with UDP, which raised significant security concerns."),
            ("human", "paraphrase", "supported", "Along with binhex, Python 3.11 removed binascii.a2b_hqx() and binascii.b2a_hqx()."),
            ("human", "date", "unsupported", "The binhex module was deprecated in Python 3.8."),
            ("model", "negation", "unsupported", "Python 3.11 keeps the reuse_address parameter of create_datagram_endpoint(), but it is disabled by default."),
            ("model", "name", "unsupported", "reuse_address was removed because of the behaviour of the socket option SO_REUSEPORT in UDP."),
            ("human", "scope", "unsupported", "Python 3.11 removed every function of the binascii module."),
            ("human", "condition", "unsupported", "reuse_address is removed from create_datagram_endpoint() only on platforms where SO_REUSEADDR is unsafe."),
        ],
    },
    {
        "origin": HL.format("제3조의7"),
        "lang": "ko",
        "question": "전세 계약할 때 집주인이 세금 체납 여부를 알려줘야 하나요?",
        "evidence": "제3조의7 (임대인의 정보 제시 의무) 임대차계약을 체결할 때 임대인은 다음 각 호의 사항을 임차인에게 제시하여야 한다. 1. 제3조의6제3항에 따른 해당 주택의 확정일자 부여일, 차임 및 보증금 등 정보. 다만, 임대인이 임대차계약을 체결하기 전에 제3조의6제4항에 따라 동의함으로써 이를 갈음할 수 있다. 2. 「국세징수법」 제108조에 따른 납세증명서 및 「지방세징수법」 제5조제2항에 따른 납세증명서. 다만, 임대인이 임대차계약을 체결하기 전에 「국세징수법」 제109조제1항에 따른 미납국세와 체납액의 열람 및 「지방세징수법」 제6조제1항에 따른 미납지방세의 열람에 각각 동의함으로써 이를 갈음할 수 있다.",
        "claims": [
            ("human", "paraphrase", "supported", "임대인은 임대차계약을 체결할 때 납세증명서를 임차인에게 제시하여야 한다."),
            ("model", "paraphrase", "supported", "임대차계약을 맺을 때 임대인은 해당 주택의 확정일자 부여일, 차임, 보증금 등 정보와 국세·지방세 납세증명서를 임차인에게 제시해야 합니다. 다만 계약 체결 전에 임대인이 미납국세와 미납지방세의 열람에 동의하면 납세증명서 제시를 갈음할 수 있습니다."),
            ("human", "role_swap", "unsupported", "임차인은 임대차계약을 체결할 때 납세증명서를 임대인에게 제시하여야 한다."),
            ("model", "role_swap", "unsupported", "계약 체결 전에 임차인이 미납국세의 열람에 동의하면 임대인은 납세증명서를 제시하지 않아도 됩니다."),
            ("human", "date", "unsupported", "임대인이 임대차계약을 체결한 후에 열람에 동의하면 납세증명서 제시를 갈음할 수 있다."),
            ("human", "proviso", "unsupported", "임대인은 어떤 경우에도 납세증명서를 직접 제시하여야 하며 다른 방법으로 갈음할 수 없다."),
            ("human", "article", "unsupported", "주택임대차보호법 제3조의5에 따르면 임대인은 계약을 체결할 때 납세증명서를 임차인에게 제시하여야 한다."),
            ("model", "negation", "unsupported", "임대인에게는 임대차계약을 체결할 때 임차인에게 주택의 정보나 납세증명서를 보여줄 의무가 없습니다."),
        ],
    },
    {
        "origin": HL.format("제23조"),
        "lang": "ko",
        "question": "주택임대차 분쟁조정은 얼마나 걸리나요?",
        "evidence": "제23조 (처리기간) ① 조정위원회는 분쟁의 조정신청을 받은 날부터 60일 이내에 그 분쟁조정을 마쳐야 한다. 다만, 부득이한 사정이 있는 경우에는 조정위원회의 의결을 거쳐 30일의 범위에서 그 기간을 연장할 수 있다. ② 조정위원회는 제1항 단서에 따라 기간을 연장한 경우에는 기간 연장의 사유와 그 밖에 기간 연장에 관한 사항을 당사자에게 통보하여야 한다.",
        "claims": [
            ("human", "paraphrase", "supported", "조정위원회는 조정신청을 받은 날부터 60일 이내에 분쟁조정을 마쳐야 한다."),
            ("model", "paraphrase", "supported", "분쟁조정위원회는 신청을 받은 날로부터 60일 안에 조정을 끝내야 합니다. 부득이한 사정이 있으면 위원회 의결을 거쳐 30일 범위에서 기간을 늘릴 수 있고, 그렇게 늘린 경우에는 그 사유 등을 당사자에게 알려야 합니다."),
            ("human", "number", "unsupported", "조정위원회는 조정신청을 받은 날부터 90일 이내에 분쟁조정을 마쳐야 한다."),
            ("model", "number", "unsupported", "부득이한 사정이 있으면 조정위원회 의결로 처리기간을 60일 범위에서 연장할 수 있습니다."),
            ("human", "date", "unsupported", "조정위원회는 분쟁이 발생한 날부터 60일 이내에 분쟁조정을 마쳐야 한다."),
            ("model", "condition", "unsupported", "당사자가 원하면 조정위원회는 의결 없이도 언제든지 처리기간을 30일 연장할 수 있습니다."),
            ("human", "role_swap", "unsupported", "당사자는 처리기간을 연장한 경우 그 사유를 조정위원회에 통보하여야 한다."),
            ("human", "proviso", "unsupported", "조정위원회는 어떠한 경우에도 60일의 처리기간을 연장할 수 없다."),
        ],
    },
    {
        "origin": KB.format("제76조의3 제1항, 제2항, 제4항, 제6항"),
        "lang": "ko",
        "question": "직장 내 괴롭힘을 신고하면 회사는 무엇을 해야 하나요?",
        "evidence": "제76조의3 (직장 내 괴롭힘 발생 시 조치) ① 누구든지 직장 내 괴롭힘 발생 사실을 알게 된 경우 그 사실을 사용자에게 신고할 수 있다. ② 사용자는 제1항에 따른 신고를 접수하거나 직장 내 괴롭힘 발생 사실을 인지한 경우에는 지체 없이 당사자 등을 대상으로 그 사실 확인을 위하여 객관적으로 조사를 실시하여야 한다. ④ 사용자는 제2항에 따른 조사 결과 직장 내 괴롭힘 발생 사실이 확인된 때에는 피해근로자가 요청하면 근무장소의 변경, 배치전환, 유급휴가 명령 등 적절한 조치를 하여야 한다. ⑥ 사용자는 직장 내 괴롭힘 발생 사실을 신고한 근로자 및 피해근로자등에게 해고나 그 밖의 불리한 처우를 하여서는 아니 된다.",
        "claims": [
            ("human", "paraphrase", "supported", "직장 내 괴롭힘 발생 사실을 알게 된 사람은 누구든지 사용자에게 신고할 수 있다."),
            ("model", "paraphrase", "supported", "사용자는 괴롭힘 신고를 접수하거나 그 사실을 알게 되면 지체 없이 당사자 등을 상대로 객관적인 조사를 해야 합니다. 조사 결과 괴롭힘이 확인되고 피해근로자가 요청하면 근무장소 변경, 배치전환, 유급휴가 명령 같은 적절한 조치를 해야 합니다."),
            ("human", "paraphrase", "supported", "사용자는 직장 내 괴롭힘 사실을 신고한 근로자에게 해고나 그 밖의 불리한 처우를 해서는 안 된다."),
            ("human", "role_swap", "unsupported", "근로자는 직장 내 괴롭힘 신고를 접수하면 지체 없이 사용자를 대상으로 조사를 실시하여야 한다."),
            ("model", "condition", "unsupported", "조사 결과 괴롭힘이 확인되면 사용자는 피해근로자가 요청하지 않더라도 반드시 배치전환을 해야 합니다."),
            ("human", "date", "unsupported", "사용자는 괴롭힘 신고를 접수한 날부터 30일 이내에 조사를 실시하여야 한다."),
            ("human", "scope", "unsupported", "직장 내 괴롭힘 발생 사실은 피해를 입은 근로자만 사용자에게 신고할 수 있다."),
            ("model", "negation", "unsupported", "괴롭힘 신고를 접수하더라도 사용자가 반드시 조사를 실시해야 하는 것은 아닙니다."),
        ],
    },
    {
        "origin": KB.format("제59조"),
        "lang": "ko",
        "question": "운수업이나 병원은 주 52시간을 넘겨 일할 수 있나요?",
        "evidence": "제59조 (근로시간 및 휴게시간의 특례) ① 「통계법」 제22조제1항에 따라 통계청장이 고시하는 산업에 관한 표준의 중분류 또는 소분류 중 다음 각 호의 어느 하나에 해당하는 사업에 대하여 사용자가 근로자대표와 서면으로 합의한 경우에는 제53조제1항에 따른 주(週) 12시간을 초과하여 연장근로를 하게 하거나 제54조에 따른 휴게시간을 변경할 수 있다. 1. 육상운송 및 파이프라인 운송업. 다만, 「여객자동차 운수사업법」 제3조제1항제1호에 따른 노선(路線) 여객자동차운송사업은 제외한다. 2. 수상운송업 3. 항공운송업 4. 기타 운송관련 서비스업 5. 보건업 ② 제1항의 경우 사용자는 근로일 종료 후 다음 근로일 개시 전까지 근로자에게 연속하여 11시간 이상의 휴식 시간을 주어야 한다.",
        "claims": [
            ("human", "paraphrase", "supported", "보건업에서는 사용자가 근로자대표와 서면으로 합의하면 주 12시간을 초과하여 연장근로를 하게 할 수 있다."),
            ("model", "paraphrase", "supported", "수상운송업, 항공운송업, 보건업 같은 특례 사업에서는 사용자가 근로자대표와 서면으로 합의하면 주 12시간을 넘는 연장근로를 시키거나 휴게시간을 바꿀 수 있습니다. 이 경우 근로일이 끝난 뒤 다음 근로일이 시작되기 전까지 근로자에게 연속 11시간 이상의 휴식 시간을 줘야 합니다."),
            ("human", "number", "unsupported", "특례가 적용되면 사용자는 근로일 사이에 연속하여 8시간 이상의 휴식 시간을 주어야 한다."),
            ("model", "condition", "unsupported", "특례 대상 사업이라면 근로자대표와 합의하지 않아도 사용자가 주 12시간을 넘겨 연장근로를 시킬 수 있습니다."),
            ("human", "proviso", "unsupported", "노선 여객자동차운송사업도 근로시간 특례가 적용되는 육상운송업에 포함된다."),
            ("human", "scope", "unsupported", "모든 운송업과 서비스업은 근로시간 및 휴게시간의 특례를 적용받는다."),
            ("human", "article", "unsupported", "근로기준법 제58조에 따르면 보건업 사용자는 근로자대표와 서면으로 합의하면 주 12시간을 초과하여 연장근로를 하게 할 수 있다."),
            ("model", "name", "unsupported", "특례 대상 사업은 고용노동부장관이 고시하는 산업 분류에 따라 정해지며, 보건업과 운송업이 여기에 들어갑니다."),
        ],
    },
    {
        "origin": "근로기준법 부칙 <제15513호,2018.3.20> 제1조 제1항, 제3항, 제5항, 제6항 (법률, 2024-10-22, MST265959; public domain, 저작권법 제7조)",
        "lang": "ko",
        "question": "2018년 3월 개정된 근로기준법은 언제부터 시행되었나요?",
        "evidence": "부칙 <제15513호,2018.3.20> 제1조(시행일) ① 이 법은 2018년 7월 1일부터 시행한다. ③ 제53조제3항 및 제6항, 제110조제1호 및 제2호, 제114조제1호의 개정규정은 2021년 7월 1일부터 시행한다. 다만, 제110조제1호의 개정규정 중 제59조제2항의 개정규정과 관련한 부분은 2018년 9월 1일부터 시행한다. ⑤ 제56조의 개정규정은 공포한 날부터 시행한다. ⑥ 제59조제2항의 개정규정은 2018년 9월 1일부터 시행한다.",
        "claims": [
            ("human", "paraphrase", "supported", "2018. 3. 20. 개정된 근로기준법은 2018. 7. 1.부터 시행되었다."),
            ("model", "paraphrase", "supported", "이 개정법은 원칙적으로 2018년 7월 1일부터 시행되었습니다. 다만 제59조제2항의 개정규정은 2018년 9월 1일부터, 제56조의 개정규정은 공포한 날부터 시행되었습니다."),
            ("human", "paraphrase", "supported", "제53조제3항의 개정규정은 2021. 7. 1.부터 시행한다."),
            ("human", "date", "unsupported", "제59조제2항의 개정규정은 2019년 9월 1일부터 시행한다."),
            ("model", "date", "unsupported", "제56조의 개정규정은 2018년 7월 1일부터 시행되었으므로, 공포된 직후에는 아직 적용되지 않았습니다."),
            ("human", "date", "unsupported", "이 법은 2018. 3. 20.부터 시행한다."),
            ("model", "proviso", "unsupported", "제110조제1호의 개정규정은 예외 없이 전부 2021년 7월 1일부터 시행됩니다."),
            ("human", "article", "unsupported", "제57조의 개정규정은 공포한 날부터 시행한다."),
        ],
    },
]
