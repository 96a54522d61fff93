# ruff: noqa: E501  (data: one claim or passage a line)
"""Fifth held-out seeds for ``make_support_pairs.py`` (split ``heldout5``): written and committed
before any rule change of the fourth pass, from passages used by no other split and by no row of
``kr_support_pairs.jsonl``, and measured once, at the end. Never used to choose a rule.

Claims are written as a reader of the passage would put them, in both sets (``human``: short
FEVER-like claims; ``model``: answer-style sentences), with at least three faithful paraphrases a
passage so that the passed share means something.

Evidence: Python 3.11 documentation (urllib.parse urljoin, quote and quote_plus, urldefrag;
ipaddress ip_network; http.client getresponse, readinto; What's New in 3.11 PEP 657, PEP 655,
PEP 681; PSF License; reST markup dropped, examples left out), 근로기준법 제64조, 제70조, 제75조,
출입국관리법 제18조, 개인정보 보호법 제23조 제1항·제2항, 외국인근로자의 고용 등에 관한 법률
제11조, 종합부동산세법 제7조 제1항·제2항 (public domain, 저작권법 제7조; Markdown escapes dropped).
Each claim: (set, kind, label, claim).
"""

KB = "근로기준법 {} (법률, 2024-10-22, MST265959; public domain, 저작권법 제7조)"
IM = "출입국관리법 {} (법률, 2026-08-04, MST290729; public domain, 저작권법 제7조)"
PI = "개인정보 보호법 {} (법률, 2026-09-08, MST289415; public domain, 저작권법 제7조)"
FW = "외국인근로자의 고용 등에 관한 법률 {} (법률, 2026-06-09, MST286817; public domain, 저작권법 제7조)"
CP = "종합부동산세법 {} (법률, 2025-12-23, MST280417; public domain, 저작권법 제7조)"
PY = "python-docs {} (Python 3.11.2, PSF License)"

SEEDS = [
    {
        "origin": PY.format("library/urllib.parse.rst"),
        "lang": "en",
        "question": "How does urljoin combine two URLs?",
        "evidence": 'urljoin(base, url, allow_fragments=True): Construct a full ("absolute") URL by combining a "base URL" (base) with another URL (url). Informally, this uses components of the base URL, in particular the addressing scheme, the network location and (part of) the path, to provide missing components in the relative URL. The allow_fragments argument has the same meaning and default as for urlparse(). If url is an absolute URL (that is, it starts with // or scheme://), the url\'s hostname and/or scheme will be present in the result. If you do not want that behavior, preprocess the url with urlsplit() and urlunsplit(), removing possible scheme and netloc parts. Changed in version 3.5: Behavior updated to match the semantics defined in RFC 3986.',
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "urljoin fills in the parts a relative URL lacks, such as the scheme and the network location, from the base URL.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "According to the docs, when the second URL is absolute, beginning with // or scheme://, its own hostname or scheme ends up in the joined result.",
            ),
            (
                "human",
                "paraphrase",
                "supported",
                "Since Python 3.5, urljoin follows the semantics defined in RFC 3986.",
            ),
            ("human", "date", "unsupported", "urljoin was brought in line with RFC 3986 in Python 3.7."),
            (
                "model",
                "name",
                "unsupported",
                "To avoid that, the documentation suggests running the url through urldefrag() and urlunsplit() first to strip the scheme and netloc.",
            ),
            (
                "human",
                "role_swap",
                "unsupported",
                "urljoin takes the missing components of the base URL from the relative URL.",
            ),
            (
                "model",
                "addition",
                "unsupported",
                "In short, urljoin combines a base URL with another URL into an absolute URL, and it also percent-encodes any spaces left in the result.",
            ),
        ],
    },
    {
        "origin": PY.format("library/urllib.parse.rst"),
        "lang": "en",
        "question": "What do quote and quote_plus escape?",
        "evidence": "quote(string, safe='/', encoding=None, errors=None): Replace special characters in string using the %xx escape. Letters, digits, and the characters '_.-~' are never quoted. By default, this function is intended for quoting the path section of a URL. The optional safe parameter specifies additional ASCII characters that should not be quoted; its default value is '/'. string may be either a str or a bytes object. The optional encoding and errors parameters specify how to deal with non-ASCII characters, as accepted by the str.encode() method. encoding defaults to 'utf-8'. errors defaults to 'strict', meaning unsupported characters raise a UnicodeEncodeError. encoding and errors must not be supplied if string is a bytes, or a TypeError is raised. quote_plus(string, safe='', encoding=None, errors=None): Like quote(), but also replace spaces with plus signs, as required for quoting HTML form values when building up a query string to go into a URL. Plus signs in the original string are escaped unless they are included in safe. It also does not have safe default to '/'.",
        "claims": [
            ("human", "paraphrase", "supported", "quote() never escapes letters, digits or the characters _ . - ~."),
            (
                "model",
                "paraphrase",
                "supported",
                "In short, quote_plus works like quote but also turns spaces into plus signs, which HTML form values in a query string need.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "According to the documentation, supplying encoding or errors together with a bytes string makes quote raise a TypeError.",
            ),
            ("human", "name", "unsupported", "quote_plus is meant by default for quoting the path section of a URL."),
            (
                "human",
                "negation",
                "unsupported",
                "quote_plus leaves plus signs of the original string as they are, even when they are not in safe.",
            ),
            (
                "model",
                "name",
                "unsupported",
                "According to the docs, the optional errors parameter lists additional ASCII characters that should not be quoted, and its default is '/'.",
            ),
            (
                "human",
                "condition",
                "unsupported",
                "quote raises a TypeError when encoding and errors are supplied for a str string.",
            ),
        ],
    },
    {
        "origin": PY.format("library/urllib.parse.rst"),
        "lang": "en",
        "question": "What does urldefrag return?",
        "evidence": "urldefrag(url): If url contains a fragment identifier, return a modified version of url with no fragment identifier, and the fragment identifier as a separate string. If there is no fragment identifier in url, return url unmodified and an empty string. The return value is a named tuple, its items can be accessed by index or as named attributes: url (index 0), the URL with no fragment, or an empty string if not present; fragment (index 1), the fragment identifier, or an empty string if not present. Changed in version 3.2: Result is a structured object rather than a simple 2-tuple.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "For a URL without a fragment identifier, urldefrag gives back the URL unchanged together with an empty string.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "According to the docs, urldefrag returns a named tuple, so its two parts can be read by index or by attribute name.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "In short, urldefrag splits the fragment identifier off a URL and returns it as a separate string next to the URL without it.",
            ),
            ("human", "name", "unsupported", "urldefrag returns the query of a URL as a separate string."),
            ("human", "number", "unsupported", "In the result of urldefrag, the fragment sits at index 2."),
            (
                "model",
                "condition",
                "unsupported",
                "According to the documentation, urldefrag returns an empty string as the fragment whenever the URL contains a fragment identifier.",
            ),
            (
                "model",
                "date",
                "unsupported",
                "Since Python 3.4, the result of urldefrag has been a structured object rather than a plain 2-tuple.",
            ),
        ],
    },
    {
        "origin": PY.format("library/ipaddress.rst"),
        "lang": "en",
        "question": "What does ipaddress.ip_network accept?",
        "evidence": "ip_network(address, strict=True): Return an IPv4Network or IPv6Network object depending on the IP address passed as argument. address is a string or integer representing the IP network. Either IPv4 or IPv6 networks may be supplied; integers less than 2**32 will be considered to be IPv4 by default. strict is passed to IPv4Network or IPv6Network constructor. A ValueError is raised if address does not represent a valid IPv4 or IPv6 address, or if the network has host bits set.",
        "claims": [
            ("human", "paraphrase", "supported", "ip_network treats an integer below 2**32 as IPv4 by default."),
            (
                "model",
                "paraphrase",
                "supported",
                "According to the docs, ip_network raises a ValueError when the address is not a valid IPv4 or IPv6 address or when the network has host bits set.",
            ),
            (
                "human",
                "paraphrase",
                "supported",
                "ip_network hands its strict argument on to the IPv4Network or IPv6Network constructor.",
            ),
            ("human", "number", "unsupported", "ip_network considers integers below 2**64 to be IPv4 by default."),
            (
                "model",
                "name",
                "unsupported",
                "In short, ip_network returns an IPv4Address or IPv6Address object depending on the address it is given.",
            ),
            (
                "human",
                "negation",
                "unsupported",
                "ip_network accepts a network with host bits set without raising an error.",
            ),
            (
                "model",
                "scope",
                "unsupported",
                "According to the documentation, ip_network accepts only IPv4 networks, given as strings.",
            ),
        ],
    },
    {
        "origin": PY.format("library/http.client.rst"),
        "lang": "en",
        "question": "How is a response read from an HTTPConnection?",
        "evidence": "HTTPConnection.getresponse(): Should be called after a request is sent to get the response from the server. Returns an HTTPResponse instance. Note that you must have read the whole response before you can send a new request to the server. Changed in version 3.5: If a ConnectionError or subclass is raised, the HTTPConnection object will be ready to reconnect when a new request is sent. HTTPConnection.close(): Close the connection to the server. HTTPResponse.read([amt]): Reads and returns the response body, or up to the next amt bytes. HTTPResponse.readinto(b): Reads up to the next len(b) bytes of the response body into the buffer b. Returns the number of bytes read.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "The whole response has to be read before a new request can be sent to the server.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "According to the docs, since Python 3.5 an HTTPConnection that raised a ConnectionError is ready to reconnect when the next request is sent.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "In short, readinto fills the buffer b with up to len(b) bytes of the response body and returns how many bytes it read.",
            ),
            (
                "human",
                "date",
                "unsupported",
                "Since Python 3.3, an HTTPConnection object that raised a ConnectionError reconnects when a new request is sent.",
            ),
            (
                "human",
                "name",
                "unsupported",
                "HTTPConnection.close() is called after a request is sent to get the response from the server.",
            ),
            (
                "model",
                "contrast",
                "unsupported",
                "According to the documentation, a new request can be sent to the server while the previous response is still being read.",
            ),
            (
                "model",
                "condition",
                "unsupported",
                "getresponse is called before the request is sent, and it returns an HTTPResponse instance.",
            ),
            ("human", "role_swap", "unsupported", "readinto reads the buffer b into the response body."),
        ],
    },
    {
        "origin": PY.format("whatsnew/3.11.rst"),
        "lang": "en",
        "question": "What changed in tracebacks with PEP 657?",
        "evidence": "PEP 657: Fine-grained error locations in tracebacks. When printing tracebacks, the interpreter will now point to the exact expression that caused the error, instead of just the line. Previous versions of the interpreter would point to just the line, making it ambiguous which object was None. These enhanced errors can also be helpful when dealing with deeply nested dict objects and multiple function calls. Additionally, the information used by the enhanced traceback feature is made available via a general API, that can be used to correlate bytecode instructions with source code location. This information can be retrieved using the codeobject.co_positions() method in Python and the PyCode_Addr2Location() function in the C API. Note: this feature requires storing column positions in code objects, which may result in a small increase in interpreter memory usage and disk usage for compiled Python files. To avoid storing the extra information and deactivate printing the extra traceback information, use the -X no_debug_ranges command line option or the PYTHONNODEBUGRANGES environment variable.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "In Python 3.11, tracebacks point to the exact expression that caused an error rather than only to the line.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "According to What's New, storing the column positions can slightly raise the interpreter's memory use and the disk space taken by compiled Python files.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "In short, the -X no_debug_ranges option or the PYTHONNODEBUGRANGES environment variable switches the extra traceback information off.",
            ),
            (
                "human",
                "name",
                "unsupported",
                "The location information behind the enhanced tracebacks can be retrieved in Python with the codeobject.co_lines() method.",
            ),
            (
                "human",
                "contrast",
                "unsupported",
                "Earlier interpreters already pointed to the exact expression that caused an error.",
            ),
            (
                "model",
                "condition",
                "unsupported",
                "According to the docs, the extra column positions are stored only when the PYTHONNODEBUGRANGES environment variable is set.",
            ),
            ("human", "name", "unsupported", "Fine-grained error locations in tracebacks came with PEP 654."),
            (
                "model",
                "addition",
                "unsupported",
                "According to What's New, tracebacks now point to the exact expression that caused the error, and the change also makes the interpreter about 25% faster.",
            ),
        ],
    },
    {
        "origin": PY.format("whatsnew/3.11.rst"),
        "lang": "en",
        "question": "What does PEP 655 add to TypedDict?",
        "evidence": "PEP 655: Marking individual TypedDict items as required or not-required. Required and NotRequired provide a straightforward way to mark whether individual items in a TypedDict must be present. Previously, this was only possible using inheritance. All fields are still required by default, unless the total parameter is set to False, in which case all fields are still not-required by default. (Contributed by David Foster and Jelle Zijlstra in bpo-47087. PEP written by David Foster.)",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "Before PEP 655, individual TypedDict items could be marked as required or not required only through inheritance.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "According to What's New in Python 3.11, TypedDict fields stay required by default unless total is set to False, in which case they default to not-required.",
            ),
            ("human", "paraphrase", "supported", "David Foster wrote PEP 655."),
            ("human", "name", "unsupported", "PEP 655 was written by Jelle Zijlstra."),
            (
                "human",
                "condition",
                "unsupported",
                "When total is set to False, all TypedDict fields are still required by default.",
            ),
            (
                "model",
                "negation",
                "unsupported",
                "In short, even with PEP 655, individual TypedDict items still cannot be marked as required or not-required without inheritance.",
            ),
            (
                "model",
                "name",
                "unsupported",
                "According to the docs, PEP 655 adds Optional and NotRequired to mark whether individual TypedDict items must be present.",
            ),
        ],
    },
    {
        "origin": PY.format("whatsnew/3.11.rst"),
        "lang": "en",
        "question": "What is dataclass_transform for?",
        "evidence": 'PEP 681: Data class transforms. dataclass_transform may be used to decorate a class, metaclass, or a function that is itself a decorator. The presence of @dataclass_transform() tells a static type checker that the decorated object performs runtime "magic" that transforms a class, giving it dataclass-like behaviors. See PEP 681 for more details. (Contributed by Jelle Zijlstra in gh-91860. PEP written by Erik De Bonte and Eric Traut.)',
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "The @dataclass_transform() decorator tells static type checkers that the decorated object gives classes dataclass-like behaviour at runtime.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "According to What's New, dataclass_transform can decorate a class, a metaclass, or a function that is itself a decorator.",
            ),
            ("human", "paraphrase", "supported", "Erik De Bonte and Eric Traut wrote PEP 681."),
            (
                "human",
                "role_swap",
                "unsupported",
                "PEP 681 was written by Jelle Zijlstra and contributed by Erik De Bonte and Eric Traut.",
            ),
            (
                "model",
                "name",
                "unsupported",
                "In short, the presence of @dataclass_transform() tells the interpreter at runtime that the decorated object transforms a class.",
            ),
            ("human", "scope", "unsupported", "dataclass_transform may only be used to decorate functions."),
            (
                "model",
                "addition",
                "unsupported",
                "According to What's New, @dataclass_transform() tells static type checkers that the decorated object transforms a class, and it also generates __slots__ for that class automatically.",
            ),
        ],
    },
    {
        "origin": KB.format("제64조"),
        "lang": "ko",
        "question": "몇 살부터 근로자로 사용할 수 있나요?",
        "evidence": "제64조 (최저 연령과 취직인허증)\n**①** 15세 미만인 사람(「초ㆍ중등교육법」에 따른 중학교에 재학 중인 18세 미만인 사람을 포함한다)은 근로자로 사용하지 못한다. 다만, 대통령령으로 정하는 기준에 따라 고용노동부장관이 발급한 취직인허증(就職認許證)을 지닌 사람은 근로자로 사용할 수 있다. <개정 2010.6.4, 2020.5.26>\n\n**②** 제1항의 취직인허증은 본인의 신청에 따라 의무교육에 지장이 없는 경우에는 직종(職種)을 지정하여서만 발행할 수 있다.\n\n**③** 고용노동부장관은 거짓이나 그 밖의 부정한 방법으로 제1항 단서의 취직인허증을 발급받은 사람에게는 그 인허를 취소하여야 한다. <개정 2010.6.4, 2020.5.26>",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "중학교에 다니는 18세 미만인 사람도 15세 미만인 사람처럼 원칙적으로 근로자로 쓸 수 없다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "근로기준법 제64조에 따르면, 고용노동부장관이 발급한 취직인허증을 지닌 사람은 15세 미만이라도 근로자로 사용할 수 있습니다.",
            ),
            (
                "human",
                "paraphrase",
                "supported",
                "거짓이나 부정한 방법으로 취직인허증을 받은 사람에 대해서는 고용노동부장관이 그 인허를 취소해야 한다.",
            ),
            ("human", "number", "unsupported", "16세 미만인 사람은 근로자로 사용하지 못한다."),
            ("human", "name", "unsupported", "취직인허증은 교육부장관이 발급한다."),
            (
                "model",
                "condition",
                "unsupported",
                "제64조에 따르면 취직인허증은 의무교육에 지장이 있더라도 본인이 신청하면 직종을 지정하지 않고 발행할 수 있습니다.",
            ),
            ("human", "role_swap", "unsupported", "취직인허증은 사용자의 신청에 따라 발행된다."),
            (
                "model",
                "negation",
                "unsupported",
                "부정한 방법으로 받은 취직인허증이라도 고용노동부장관이 그 인허를 취소할 수는 없습니다.",
            ),
        ],
    },
    {
        "origin": KB.format("제70조"),
        "lang": "ko",
        "question": "여성과 연소자의 야간근로는 어떻게 제한되나요?",
        "evidence": "제70조 (야간근로와 휴일근로의 제한)\n**①** 사용자는 18세 이상의 여성을 오후 10시부터 오전 6시까지의 시간 및 휴일에 근로시키려면 그 근로자의 동의를 받아야 한다.\n\n**②** 사용자는 임산부와 18세 미만자를 오후 10시부터 오전 6시까지의 시간 및 휴일에 근로시키지 못한다. 다만, 다음 각 호의 어느 하나에 해당하는 경우로서 고용노동부장관의 인가를 받으면 그러하지 아니하다. <개정 2010.6.4>\n  1. 18세 미만자의 동의가 있는 경우\n  2. 산후 1년이 지나지 아니한 여성의 동의가 있는 경우\n  3. 임신 중의 여성이 명시적으로 청구하는 경우\n\n**③** 사용자는 제2항의 경우 고용노동부장관의 인가를 받기 전에 근로자의 건강 및 모성 보호를 위하여 그 시행 여부와 방법 등에 관하여 그 사업 또는 사업장의 근로자대표와 성실하게 협의하여야 한다. <개정 2010.6.4>",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "18세 이상 여성에게 밤 10시부터 아침 6시 사이에 일을 시키려면 사용자는 그 근로자의 동의를 얻어야 한다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "근로기준법 제70조에 따르면 임산부와 18세 미만자의 야간·휴일근로는 원칙적으로 금지되지만, 정해진 경우에 해당하고 고용노동부장관의 인가를 받으면 허용됩니다.",
            ),
            (
                "human",
                "paraphrase",
                "supported",
                "임신 중인 여성이 명시적으로 청구하고 고용노동부장관의 인가를 받으면 그 여성에게 야간근로를 시킬 수 있다.",
            ),
            (
                "human",
                "number",
                "unsupported",
                "사용자는 18세 이상의 여성을 오후 9시부터 오전 6시까지 근로시키려면 그 근로자의 동의를 받아야 한다.",
            ),
            (
                "model",
                "proviso",
                "unsupported",
                "제70조에 따르면 18세 미만자는 본인이 동의하기만 하면 고용노동부장관의 인가 없이도 야간에 근로시킬 수 있습니다.",
            ),
            (
                "human",
                "condition",
                "unsupported",
                "사용자는 고용노동부장관의 인가를 받은 뒤에 근로자대표와 성실하게 협의하여야 한다.",
            ),
            ("human", "name", "unsupported", "사용자는 인가를 받기 전에 노동조합과 성실하게 협의하여야 한다."),
            (
                "model",
                "scope",
                "unsupported",
                "근로기준법 제70조는 모든 여성 근로자의 야간근로를 예외 없이 금지합니다.",
            ),
        ],
    },
    {
        "origin": KB.format("제75조"),
        "lang": "ko",
        "question": "수유 시간은 얼마나 주어야 하나요?",
        "evidence": "제75조 (육아 시간)\n생후 1년 미만의 유아(乳兒)를 가진 여성 근로자가 청구하면 1일 2회 각각 30분 이상의 유급 수유 시간을 주어야 한다.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "생후 1년이 안 된 아기를 둔 여성 근로자가 청구하면 하루 두 번, 각각 30분 이상 유급 수유 시간을 주어야 한다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "근로기준법 제75조에 따르면 수유 시간은 유급이며, 1일 2회 각각 30분 이상 주어야 합니다.",
            ),
            ("human", "paraphrase", "supported", "수유 시간은 여성 근로자가 청구할 때 주어진다."),
            (
                "human",
                "number",
                "unsupported",
                "생후 2년 미만의 유아를 가진 여성 근로자가 청구하면 수유 시간을 주어야 한다.",
            ),
            ("human", "negation", "unsupported", "수유 시간은 무급으로 주어진다."),
            (
                "model",
                "role_swap",
                "unsupported",
                "제75조에 따르면 사용자가 청구하면 여성 근로자는 1일 2회 수유 시간을 가져야 합니다.",
            ),
            (
                "model",
                "addition",
                "unsupported",
                "근로기준법 제75조에 따르면 수유 시간은 1일 2회 각각 30분 이상 유급으로 주어지며, 배우자인 남성 근로자에게도 똑같이 적용됩니다.",
            ),
        ],
    },
    {
        "origin": IM.format("제18조"),
        "lang": "ko",
        "question": "외국인을 고용할 때 어떤 제한이 있나요?",
        "evidence": "제18조 (외국인 고용의 제한)\n**①** 외국인이 대한민국에서 취업하려면 대통령령으로 정하는 바에 따라 취업활동을 할 수 있는 체류자격을 받아야 한다.\n\n**②** 제1항에 따른 체류자격을 가진 외국인은 지정된 근무처가 아닌 곳에서 근무하여서는 아니 된다.\n\n**③** 누구든지 제1항에 따른 체류자격을 가지지 아니한 사람을 고용하여서는 아니 된다.\n\n**④** 누구든지 제1항에 따른 체류자격을 가지지 아니한 사람의 고용을 알선하거나 권유하여서는 아니 된다.\n\n**⑤** 누구든지 제1항에 따른 체류자격을 가지지 아니한 사람의 고용을 알선할 목적으로 그를 자기 지배하에 두는 행위를 하여서는 아니 된다.",
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "외국인이 한국에서 일하려면 취업활동을 할 수 있는 체류자격을 받아야 한다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "출입국관리법 제18조에 따르면, 취업활동을 할 수 있는 체류자격을 가진 외국인이라도 지정된 근무처가 아닌 곳에서는 근무할 수 없습니다.",
            ),
            (
                "human",
                "paraphrase",
                "supported",
                "체류자격이 없는 사람의 고용을 알선하거나 권유하는 것은 누구에게나 금지된다.",
            ),
            ("human", "condition", "unsupported", "체류자격이 없는 사람이라도 지정된 근무처에서라면 고용할 수 있다."),
            (
                "model",
                "name",
                "unsupported",
                "제18조에 따르면 외국인이 취업하려면 법무부령으로 정하는 바에 따라 체류자격을 받아야 합니다.",
            ),
            ("human", "scope", "unsupported", "체류자격이 없는 사람을 고용하는 것은 사업주에게만 금지된다."),
            (
                "model",
                "negation",
                "unsupported",
                "제18조에 따르면 체류자격이 없는 사람의 고용을 권유하는 것은 금지되지 않고, 고용을 알선하는 것만 금지됩니다.",
            ),
        ],
    },
    {
        "origin": PI.format("제23조 제1항, 제2항"),
        "lang": "ko",
        "question": "민감정보는 언제 처리할 수 있나요?",
        "evidence": '제23조 (민감정보의 처리 제한)\n**①** 개인정보처리자는 사상ㆍ신념, 노동조합ㆍ정당의 가입ㆍ탈퇴, 정치적 견해, 건강, 성생활 등에 관한 정보, 그 밖에 정보주체의 사생활을 현저히 침해할 우려가 있는 개인정보로서 대통령령으로 정하는 정보(이하 "민감정보"라 한다)를 처리하여서는 아니 된다. 다만, 다음 각 호의 어느 하나에 해당하는 경우에는그러하지 아니하다. <개정 2016.3.29>\n  1. 정보주체에게 제15조제2항 각 호 또는 제17조제2항 각 호의 사항을 알리고 다른 개인정보의 처리에 대한 동의와 별도로 동의를 받은 경우\n  2. 법령에서 민감정보의 처리를 요구하거나 허용하는 경우\n\n**②** 개인정보처리자가 제1항 각 호에 따라 민감정보를 처리하는 경우에는 그 민감정보가 분실ㆍ도난ㆍ유출ㆍ위조ㆍ변조 또는 훼손(이하 "유출등"이라 한다)이 되지 아니하도록 제29조에 따른 안전성 확보에 필요한 조치를 하여야 한다. <신설 2016.3.29, 2026.3.10>',
        "claims": [
            ("human", "paraphrase", "supported", "개인정보처리자는 원칙적으로 민감정보를 처리할 수 없다."),
            (
                "model",
                "paraphrase",
                "supported",
                "개인정보 보호법 제23조에 따르면 법령이 민감정보의 처리를 요구하거나 허용하는 경우에는 민감정보를 처리할 수 있습니다.",
            ),
            (
                "human",
                "paraphrase",
                "supported",
                "민감정보를 처리하는 개인정보처리자는 그 정보가 유출되지 않도록 제29조에 따른 안전성 확보 조치를 해야 한다.",
            ),
            (
                "human",
                "article",
                "unsupported",
                "민감정보를 처리하는 경우에는 제30조에 따른 안전성 확보에 필요한 조치를 하여야 한다.",
            ),
            (
                "model",
                "condition",
                "unsupported",
                "제23조에 따르면 다른 개인정보의 처리에 대한 동의를 받았다면 민감정보에 대해 따로 동의를 받지 않아도 됩니다.",
            ),
            ("human", "name", "unsupported", "민감정보의 범위는 개인정보보호위원회가 고시로 정한다."),
            (
                "model",
                "negation",
                "unsupported",
                "제23조에 따르면 건강이나 정치적 견해에 관한 정보는 민감정보에 포함되지 않습니다.",
            ),
        ],
    },
    {
        "origin": FW.format("제11조"),
        "lang": "ko",
        "question": "외국인 취업교육은 누가 언제 받나요?",
        "evidence": '제11조 (외국인 취업교육)\n**①** 외국인근로자는 입국한 후에 고용노동부령으로 정하는 기간 이내에 한국산업인력공단 또는 제11조의3에 따른 외국인 취업교육기관에서 국내 취업활동에 필요한 사항을 주지(周知)시키기 위하여 실시하는 교육(이하 "외국인 취업교육"이라 한다)을 받아야 한다. <개정 2010.6.4, 2022.6.10>\n\n**②** 사용자는 외국인근로자가 외국인 취업교육을 받을 수 있도록 하여야 한다.\n\n**③** 외국인 취업교육의 시간과 내용, 그 밖에 외국인 취업교육에 필요한 사항은 고용노동부령으로 정한다. <개정 2010.6.4>',
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "외국인근로자는 입국한 뒤 고용노동부령으로 정한 기간 안에 외국인 취업교육을 받아야 한다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "외국인근로자의 고용 등에 관한 법률 제11조에 따르면 사용자는 외국인근로자가 외국인 취업교육을 받을 수 있게 해야 합니다.",
            ),
            ("human", "paraphrase", "supported", "외국인 취업교육의 시간과 내용은 고용노동부령에서 정한다."),
            ("human", "date", "unsupported", "외국인근로자는 입국하기 전에 외국인 취업교육을 받아야 한다."),
            ("human", "name", "unsupported", "외국인 취업교육은 근로복지공단에서 실시한다."),
            (
                "model",
                "role_swap",
                "unsupported",
                "제11조에 따르면 외국인근로자는 사용자가 외국인 취업교육을 받을 수 있도록 하여야 합니다.",
            ),
            ("model", "name", "unsupported", "제11조에 따르면 외국인 취업교육의 시간과 내용은 대통령령으로 정합니다."),
        ],
    },
    {
        "origin": CP.format("제7조 제1항, 제2항"),
        "lang": "ko",
        "question": "주택분 종합부동산세는 누가 내나요?",
        "evidence": '제7조 (납세의무자)\n**①** 과세기준일 현재 주택분 재산세의 납세의무자는 종합부동산세를 납부할 의무가 있다. <개정 2005.12.31, 2008.12.26, 2020.8.18>\n\n**②** 「신탁법」 제2조에 따른 수탁자(이하 "수탁자"라 한다)의 명의로 등기 또는 등록된 신탁재산으로서 주택(이하 "신탁주택"이라 한다)의 경우에는 제1항에도 불구하고 같은 조에 따른 위탁자[「주택법」 제2조제11호가목에 따른 지역주택조합, 같은 호 나목에 따른 직장주택조합 등 위탁자별로 구분 과세가 곤란한 조합으로서 대통령령으로 정하는 조합(이하 "지역주택조합등"이라 한다)이 조합원이 납부한 금전으로 매수하여 소유하고 있는 신탁주택의 경우에는 해당 지역주택조합등을 말한다. 이하 "위탁자"라 한다]가 종합부동산세를 납부할 의무가 있다. 이 경우 위탁자가 신탁주택을 소유한 것으로 본다. <신설 2020.12.29, 2025.12.23>',
        "claims": [
            (
                "human",
                "paraphrase",
                "supported",
                "과세기준일에 주택분 재산세를 내야 하는 사람은 종합부동산세도 납부할 의무가 있다.",
            ),
            (
                "model",
                "paraphrase",
                "supported",
                "종합부동산세법 제7조에 따르면 수탁자 명의로 등기된 신탁주택은 위탁자가 종합부동산세를 납부하며, 이 경우 위탁자가 그 주택을 소유한 것으로 봅니다.",
            ),
            (
                "human",
                "paraphrase",
                "supported",
                "지역주택조합이 조합원이 낸 돈으로 사들여 소유한 신탁주택이라면 종합부동산세 납세의무는 그 지역주택조합에 있다.",
            ),
            ("human", "role_swap", "unsupported", "신탁주택의 경우에는 수탁자가 종합부동산세를 납부할 의무가 있다."),
            (
                "model",
                "name",
                "unsupported",
                "제7조에 따르면 과세기준일 현재 토지분 재산세의 납세의무자가 주택분 종합부동산세를 납부할 의무를 집니다.",
            ),
            (
                "model",
                "negation",
                "unsupported",
                "제7조에 따르면 신탁주택의 경우 위탁자가 그 주택을 소유한 것으로 보지 않습니다.",
            ),
            ("human", "article", "unsupported", "여기서 수탁자는 「신탁법」 제3조에 따른 수탁자를 말한다."),
        ],
    },
]
