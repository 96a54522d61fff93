# ruff: noqa: E501  (data: one claim or passage a line)
"""Ninth held-out seeds for ``make_support_pairs.py`` (split ``heldout9``): written and committed
before any rule change of the tenth pass, from passages used by no other split and by no row of
``kr_support_pairs.jsonl``, and measured once, at the end. Never used to choose a rule.

Every perturbation kind beside faithful paraphrases: negation, number, date, name, role_swap,
proviso, condition, article, scope; the generator adds one ``unrelated`` claim a passage. Human
claims are short FEVER-like statements; model claims are written the way an LLM answers (a lead,
several clauses, a hedge or a summary sentence).

Evidence: Python 3.11 documentation (ipaddress IPv4Network.hosts, subnets, supernet; urllib.parse
parse_qs, unwrap; What's New in Python 3.11: summary speed figures, asyncio TaskGroup and timeout,
contextlib.chdir;
PSF License; reST markup dropped), 근로기준법 제7조·제8조, 제10조, 제38조, 제65조, 주택임대차보호법
제6조의3 제1항 일부·제2항·제3항 (2025-10-01), 출입국관리법 제23조 (public domain, 저작권법 제7조;
Markdown escapes dropped). Each claim: (set, kind, label, claim).
"""

KB = "근로기준법 {} (법률, 2024-10-22, MST265959; public domain, 저작권법 제7조)"
HL = "주택임대차보호법 {} (법률, 2025-10-01, MST276291; public domain, 저작권법 제7조)"
IM = "출입국관리법 {} (법률, 2026-08-04, MST290729; public domain, 저작권법 제7조)"
PY = "python-docs {} (Python 3.11.2, PSF License)"

SEEDS = [
    {
        "origin": PY.format("library/ipaddress.rst"),
        "lang": "en",
        "question": "Which addresses does IPv4Network.hosts() return?",
        "evidence": "hosts(): Returns an iterator over the usable hosts in the network. The usable hosts are all the IP addresses that belong to the network, except the network address itself and the network broadcast address. For networks with a mask length of 31, the network address and network broadcast address are also included in the result. Networks with a mask of 32 will return a list containing the single host address.",
        "claims": [
            ("human", "paraphrase", "supported", "IPv4Network.hosts() leaves out the network address and the broadcast address."),
            ("model", "paraphrase", "supported", "In short, hosts() gives you an iterator over the usable addresses of the network: every address in it apart from the network address and the broadcast address. The one exception is a /31 network, where those two addresses are included as well."),
            ("human", "paraphrase", "supported", "For a /32 network, hosts() returns a list with the single host address."),
            ("human", "negation", "unsupported", "For networks with a mask length of 31, hosts() does not include the network and broadcast addresses."),
            ("model", "number", "unsupported", "According to the documentation, the network address and the broadcast address are also included in the result of hosts() for networks with a mask length of 30."),
            ("human", "scope", "unsupported", "hosts() returns every IP address that belongs to the network."),
            ("model", "condition", "unsupported", "Based on the docs, hosts() always includes the network address and the broadcast address in its result."),
        ],
    },
    {
        "origin": PY.format("library/ipaddress.rst"),
        "lang": "en",
        "question": "How do IPv4Network.subnets() and supernet() work?",
        "evidence": "subnets(prefixlen_diff=1, new_prefix=None): The subnets that join to make the current network definition, depending on the argument values. prefixlen_diff is the amount our prefix length should be increased by. new_prefix is the desired new prefix of the subnets; it must be larger than our prefix. One and only one of prefixlen_diff and new_prefix must be set. Returns an iterator of network objects. supernet(prefixlen_diff=1, new_prefix=None): The supernet containing this network definition, depending on the argument values. prefixlen_diff is the amount our prefix length should be decreased by. new_prefix is the desired new prefix of the supernet; it must be smaller than our prefix. One and only one of prefixlen_diff and new_prefix must be set. Returns a single network object.",
        "claims": [
            ("human", "paraphrase", "supported", "subnets() returns an iterator of network objects, while supernet() returns a single network object."),
            ("model", "paraphrase", "supported", "When you call supernet(), the prefixlen_diff argument says how much the prefix length should be decreased, and a new_prefix you pass must be smaller than the current prefix. Note that exactly one of the two arguments may be set."),
            ("human", "paraphrase", "supported", "For subnets(), the new_prefix must be larger than the network's current prefix."),
            ("human", "role_swap", "unsupported", "For supernet(), the new_prefix must be larger than the network's current prefix."),
            ("model", "role_swap", "unsupported", "According to the documentation, subnets() returns a single network object, whereas supernet() returns an iterator of network objects."),
            ("model", "negation", "unsupported", "The docs explain that prefixlen_diff and new_prefix can both be set at the same time when calling subnets()."),
            ("human", "number", "unsupported", "By default subnets() increases the prefix length by 2."),
            ("human", "scope", "unsupported", "subnets() returns every subnet of the network, whatever arguments are given."),
        ],
    },
    {
        "origin": PY.format("library/urllib.parse.rst"),
        "lang": "en",
        "question": "What does urllib.parse.parse_qs return?",
        "evidence": "parse_qs(qs, keep_blank_values=False, strict_parsing=False, encoding='utf-8', errors='replace', max_num_fields=None, separator='&'): Parse a query string given as a string argument (data of type application/x-www-form-urlencoded). Data are returned as a dictionary. The dictionary keys are the unique query variable names and the values are lists of values for each name. The optional argument keep_blank_values is a flag indicating whether blank values in percent-encoded queries should be treated as blank strings. A true value indicates that blanks should be retained as blank strings. The default false value indicates that blank values are to be ignored and treated as if they were not included.",
        "claims": [
            ("human", "paraphrase", "supported", "parse_qs returns a dictionary that maps each query variable name to a list of its values."),
            ("model", "paraphrase", "supported", "By default, parse_qs ignores blank values and treats them as if they were not included; if you pass a true value for keep_blank_values, they are kept as blank strings instead."),
            ("human", "paraphrase", "supported", "parse_qs parses a query string of type application/x-www-form-urlencoded."),
            ("human", "negation", "unsupported", "By default parse_qs keeps blank values as blank strings."),
            ("model", "condition", "unsupported", "According to the docs, parse_qs retains blank values as blank strings whenever strict_parsing is true."),
            ("model", "scope", "unsupported", "The documentation says that parse_qs returns a dictionary whose values are single strings, one value per name."),
            ("human", "name", "unsupported", "parse_qs uses ';' as its default separator."),
            ("human", "role_swap", "unsupported", "In the dictionary parse_qs returns, the keys are the values and the values are lists of variable names."),
        ],
    },
    {
        "origin": PY.format("whatsnew/3.11.rst"),
        "lang": "en",
        "question": "How much faster is Python 3.11?",
        "evidence": "Python 3.11 is between 10-60% faster than Python 3.10. On average, we measured a 1.25x speedup on the standard benchmark suite. Added the TaskGroup class, an asynchronous context manager holding a group of tasks that will wait for all of them upon exit. For new code this is recommended over using create_task() and gather() directly. (Contributed by Yury Selivanov and others in gh-90908.) Added timeout(), an asynchronous context manager for setting a timeout on asynchronous operations. For new code this is recommended over using wait_for() directly. (Contributed by Andrew Svetlov in gh-90927.)",
        "claims": [
            ("human", "paraphrase", "supported", "Python 3.11 runs between 10% and 60% faster than Python 3.10."),
            ("model", "paraphrase", "supported", "Performance-wise, the release notes report that Python 3.11 is 10-60% faster than 3.10, with an average speedup of about 1.25x measured on the standard benchmark suite."),
            ("model", "paraphrase", "supported", "For new asyncio code, the docs recommend the new TaskGroup class, an async context manager that waits for all of its tasks on exit, rather than calling create_task() and gather() directly."),
            ("human", "paraphrase", "supported", "asyncio.timeout() is an asynchronous context manager for putting a timeout on asynchronous operations."),
            ("human", "number", "unsupported", "On average Python 3.11 showed a 1.5x speedup on the standard benchmark suite."),
            ("model", "name", "unsupported", "According to What's New, asyncio.timeout() was contributed by Yury Selivanov and is recommended over using wait_for() directly."),
            ("human", "role_swap", "unsupported", "Python 3.10 is between 10-60% faster than Python 3.11."),
            ("model", "negation", "unsupported", "The release notes say that for new code TaskGroup is not recommended over using create_task() and gather() directly."),
            ("human", "date", "unsupported", "The TaskGroup class was added to asyncio in Python 3.10."),
        ],
    },
    {
        "origin": PY.format("library/urllib.parse.rst"),
        "lang": "en",
        "question": "What does urllib.parse.unwrap do?",
        "evidence": "unwrap(url): Extract the url from a wrapped URL (that is, a string formatted as <URL:scheme://host/path>, <scheme://host/path>, URL:scheme://host/path or scheme://host/path). If url is not a wrapped URL, it is returned without changes.",
        "claims": [
            ("human", "paraphrase", "supported", "unwrap() extracts the URL from a wrapped URL such as <URL:scheme://host/path>."),
            ("model", "paraphrase", "supported", "If the string you pass to unwrap() is not a wrapped URL, the function simply hands it back unchanged."),
            ("human", "negation", "unsupported", "unwrap() raises an error if url is not a wrapped URL."),
            ("model", "scope", "unsupported", "According to the docs, unwrap() only accepts URLs written in the <URL:scheme://host/path> form."),
            ("human", "role_swap", "unsupported", "unwrap() wraps a plain URL into the form <URL:scheme://host/path>."),
            ("human", "paraphrase", "supported", "unwrap('URL:scheme://host/path') gives back scheme://host/path."),
            ("model", "name", "unsupported", "The docs describe urllib.parse.unquote() as the function that extracts the url from a wrapped URL such as <URL:scheme://host/path>."),
            ("human", "condition", "unsupported", "unwrap() returns its argument without changes only when it is a wrapped URL."),
        ],
    },
    {
        "origin": PY.format("whatsnew/3.11.rst"),
        "lang": "en",
        "question": "What is contextlib.chdir in Python 3.11?",
        "evidence": "contextlib: Added non parallel-safe chdir() context manager to change the current working directory and then restore it on exit. Simple wrapper around os.chdir(). (Contributed by Filipe Laíns in bpo-25625)",
        "claims": [
            ("human", "paraphrase", "supported", "Python 3.11 added contextlib.chdir(), a context manager that changes the working directory and restores it on exit."),
            ("model", "paraphrase", "supported", "Python 3.11 introduced contextlib.chdir(), which is essentially a thin wrapper around os.chdir(). Keep in mind that it is not parallel-safe."),
            ("human", "paraphrase", "supported", "contextlib.chdir() was contributed by Filipe Laíns."),
            ("human", "negation", "unsupported", "contextlib.chdir() is safe to use in parallel code."),
            ("model", "name", "unsupported", "According to the changelog, the new context manager is a simple wrapper around os.chroot()."),
            ("human", "date", "unsupported", "contextlib.chdir() was added in Python 3.9."),
            ("model", "scope", "unsupported", "The new contextlib.chdir() changes the working directory for every thread of the process and leaves it changed after the block exits."),
            ("human", "name", "unsupported", "contextlib.chdir() was contributed by Eric V. Smith."),
            ("model", "role_swap", "unsupported", "Python 3.11 turns os.chdir() into a simple wrapper around the new contextlib.chdir() context manager."),
        ],
    },
    {
        "origin": KB.format("제7조·제8조"),
        "lang": "ko",
        "question": "회사가 일을 강요하거나 때리면 어떻게 되나요?",
        "evidence": "제7조 (강제 근로의 금지) 사용자는 폭행, 협박, 감금, 그 밖에 정신상 또는 신체상의 자유를 부당하게 구속하는 수단으로써 근로자의 자유의사에 어긋나는 근로를 강요하지 못한다. 제8조 (폭행의 금지) 사용자는 사고의 발생이나 그 밖의 어떠한 이유로도 근로자에게 폭행을 하지 못한다.",
        "claims": [
            ("human", "paraphrase", "supported", "사용자는 어떤 이유로도 근로자를 폭행할 수 없다."),
            ("model", "paraphrase", "supported", "근로기준법 제7조에 따라 사용자는 협박이나 감금처럼 정신상 또는 신체상의 자유를 부당하게 구속하는 수단으로 근로자의 자유의사에 어긋나는 근로를 강요할 수 없습니다."),
            ("human", "negation", "unsupported", "사고가 발생한 경우에는 사용자가 근로자에게 폭행을 할 수 있다."),
            ("model", "article", "unsupported", "근로기준법 제9조는 사용자가 근로자에게 폭행을 하지 못하도록 정하고 있습니다."),
            ("human", "role_swap", "unsupported", "근로자는 사용자의 자유의사에 어긋나는 근로를 강요하지 못한다."),
            ("human", "paraphrase", "supported", "사용자는 폭행이나 감금으로 근로자에게 근로를 강요해서는 안 된다."),
            ("model", "condition", "unsupported", "근로기준법상 사용자의 폭행이 금지되는 것은 사고가 발생하지 않은 경우에 한정됩니다."),
            ("model", "scope", "unsupported", "강제 근로의 금지는 폭행을 수단으로 하는 경우에만 적용되므로, 협박이나 감금으로 근로를 강요하는 것은 이 조문에 해당하지 않습니다."),
        ],
    },
    {
        "origin": KB.format("제10조"),
        "lang": "ko",
        "question": "근무 시간 중에 투표하러 가도 되나요?",
        "evidence": "제10조 (공민권 행사의 보장) 사용자는 근로자가 근로시간 중에 선거권, 그 밖의 공민권(公民權) 행사 또는 공(公)의 직무를 집행하기 위하여 필요한 시간을 청구하면 거부하지 못한다. 다만, 그 권리 행사나 공(公)의 직무를 수행하는 데에 지장이 없으면 청구한 시간을 변경할 수 있다.",
        "claims": [
            ("human", "paraphrase", "supported", "근로자가 근로시간 중에 선거권 행사에 필요한 시간을 청구하면 사용자는 거부할 수 없다."),
            ("model", "paraphrase", "supported", "네, 투표 같은 공민권 행사를 위해 필요한 시간을 요청하면 회사는 이를 거부할 수 없습니다. 다만 권리 행사에 지장이 없다면 회사가 요청한 시간을 바꿀 수는 있습니다."),
            ("human", "negation", "unsupported", "사용자는 근로자가 공민권 행사에 필요한 시간을 청구하더라도 거부할 수 있다."),
            ("model", "proviso", "unsupported", "근로자가 근로시간 중에 공민권 행사에 필요한 시간을 청구하면 사용자는 거부할 수 없고, 청구한 시간을 변경할 수도 없습니다."),
            ("human", "condition", "unsupported", "사용자는 권리 행사에 지장이 있더라도 청구한 시간을 변경할 수 있다."),
            ("model", "article", "unsupported", "근로기준법 제12조에 따르면 사용자는 근로자가 선거권을 행사하기 위해 필요한 시간을 청구하면 거부하지 못합니다."),
            ("human", "role_swap", "unsupported", "근로자는 사용자가 공의 직무를 집행하기 위하여 필요한 시간을 청구하면 거부하지 못한다."),
        ],
    },
    {
        "origin": KB.format("제38조"),
        "lang": "ko",
        "question": "회사가 망하면 밀린 월급은 먼저 받을 수 있나요?",
        "evidence": "제38조 (임금채권의 우선변제) ① 임금, 재해보상금, 그 밖에 근로 관계로 인한 채권은 사용자의 총재산에 대하여 질권(質權)ㆍ저당권 또는 「동산ㆍ채권 등의 담보에 관한 법률」에 따른 담보권에 따라 담보된 채권 외에는 조세ㆍ공과금 및 다른 채권에 우선하여 변제되어야 한다. 다만, 질권ㆍ저당권 또는 「동산ㆍ채권 등의 담보에 관한 법률」에 따른 담보권에 우선하는 조세ㆍ공과금에 대하여는 그러하지 아니하다. ② 제1항에도 불구하고 다음 각 호의 어느 하나에 해당하는 채권은 사용자의 총재산에 대하여 질권ㆍ저당권 또는 「동산ㆍ채권 등의 담보에 관한 법률」에 따른 담보권에 따라 담보된 채권, 조세ㆍ공과금 및 다른 채권에 우선하여 변제되어야 한다. 1. 최종 3개월분의 임금 2. 재해보상금",
        "claims": [
            ("human", "paraphrase", "supported", "최종 3개월분의 임금은 저당권으로 담보된 채권보다도 우선하여 변제되어야 한다."),
            ("model", "paraphrase", "supported", "임금이나 재해보상금 같은 근로 관계 채권은 질권·저당권 등으로 담보된 채권을 제외하면 조세·공과금과 다른 채권보다 먼저 사용자의 총재산에서 변제됩니다. 특히 최종 3개월분의 임금과 재해보상금은 담보된 채권보다도 앞섭니다."),
            ("human", "number", "unsupported", "최종 6개월분의 임금은 담보권에 따라 담보된 채권보다 우선하여 변제되어야 한다."),
            ("model", "proviso", "unsupported", "임금 등 근로 관계로 인한 채권은 담보된 채권 외에는 모든 조세·공과금보다 항상 우선하여 변제됩니다."),
            ("human", "scope", "unsupported", "근로 관계로 인한 모든 채권은 저당권으로 담보된 채권보다 우선하여 변제되어야 한다."),
            ("model", "role_swap", "unsupported", "사용자의 총재산에 대해서는 조세·공과금이 임금 채권보다 우선하여 변제되어야 합니다."),
            ("human", "negation", "unsupported", "재해보상금은 담보권에 따라 담보된 채권보다 우선하여 변제되지 않는다."),
            ("model", "article", "unsupported", "근로기준법 제36조에 따라 최종 3개월분의 임금은 다른 채권에 우선하여 변제되어야 합니다."),
        ],
    },
    {
        "origin": KB.format("제65조"),
        "lang": "ko",
        "question": "임신한 직원에게 위험한 일을 시켜도 되나요?",
        "evidence": "제65조 (사용 금지) ① 사용자는 임신 중이거나 산후 1년이 지나지 아니한 여성(이하 \"임산부\"라 한다)과 18세 미만자를 도덕상 또는 보건상 유해ㆍ위험한 사업에 사용하지 못한다. ② 사용자는 임산부가 아닌 18세 이상의 여성을 제1항에 따른 보건상 유해ㆍ위험한 사업 중 임신 또는 출산에 관한 기능에 유해ㆍ위험한 사업에 사용하지 못한다. ③ 제1항 및 제2항에 따른 금지 직종은 대통령령으로 정한다.",
        "claims": [
            ("human", "paraphrase", "supported", "사용자는 임신 중인 여성을 보건상 유해·위험한 사업에 사용할 수 없다."),
            ("model", "paraphrase", "supported", "출산 후 1년이 지나지 않은 여성과 18세 미만인 사람도 임산부와 마찬가지로 도덕상 또는 보건상 유해·위험한 사업에 사용할 수 없으며, 구체적인 금지 직종은 대통령령으로 정해집니다."),
            ("human", "number", "unsupported", "산후 6개월이 지나지 아니한 여성은 유해·위험한 사업에 사용할 수 없다."),
            ("model", "name", "unsupported", "유해·위험한 사업의 금지 직종은 고용노동부령으로 정하도록 되어 있습니다."),
            ("human", "scope", "unsupported", "사용자는 18세 이상의 여성을 어떠한 보건상 유해·위험한 사업에도 사용하지 못한다."),
            ("model", "negation", "unsupported", "18세 미만자는 도덕상 유해·위험한 사업에 사용하는 것이 금지되지 않습니다."),
            ("model", "role_swap", "unsupported", "임산부가 아닌 18세 이상의 여성은 모든 보건상 유해·위험한 사업에 사용할 수 없고, 임산부는 임신 또는 출산에 관한 기능에 유해·위험한 사업에만 사용이 금지됩니다."),
            ("human", "number", "unsupported", "20세 미만자는 보건상 유해·위험한 사업에 사용할 수 없다."),
        ],
    },
    {
        "origin": HL.format("제6조의3 제1항(일부)·제2항·제3항"),
        "lang": "ko",
        "question": "세입자가 계약갱신을 요구하면 집주인이 거절할 수 있나요?",
        "evidence": "제6조의3 (계약갱신 요구 등) ① 제6조에도 불구하고 임대인은 임차인이 제6조제1항 전단의 기간 이내에 계약갱신을 요구할 경우 정당한 사유 없이 거절하지 못한다. 다만, 다음 각 호의 어느 하나에 해당하는 경우에는 그러하지 아니하다. 1. 임차인이 2기의 차임액에 해당하는 금액에 이르도록 차임을 연체한 사실이 있는 경우 2. 임차인이 거짓이나 그 밖의 부정한 방법으로 임차한 경우 8. 임대인(임대인의 직계존속ㆍ직계비속을 포함한다)이 목적 주택에 실제 거주하려는 경우 ② 임차인은 제1항에 따른 계약갱신요구권을 1회에 한하여 행사할 수 있다. 이 경우 갱신되는 임대차의 존속기간은 2년으로 본다. ③ 갱신되는 임대차는 전 임대차와 동일한 조건으로 다시 계약된 것으로 본다. 다만, 차임과 보증금은 제7조의 범위에서 증감할 수 있다.",
        "claims": [
            ("human", "paraphrase", "supported", "임차인은 계약갱신요구권을 한 번만 행사할 수 있고, 갱신된 임대차의 존속기간은 2년으로 본다."),
            ("model", "paraphrase", "supported", "집주인은 세입자의 계약갱신 요구를 정당한 사유 없이 거절할 수 없습니다. 다만 집주인이나 그 직계존속·직계비속이 그 집에 실제로 살려는 경우에는 거절할 수 있습니다."),
            ("model", "paraphrase", "supported", "갱신된 임대차는 이전 계약과 같은 조건으로 다시 계약된 것으로 보지만, 차임과 보증금은 제7조의 범위 안에서 올리거나 내릴 수 있습니다."),
            ("human", "number", "unsupported", "임차인은 계약갱신요구권을 2회까지 행사할 수 있다."),
            ("model", "proviso", "unsupported", "갱신되는 임대차는 전 임대차와 동일한 조건으로 다시 계약된 것으로 보므로, 갱신할 때 차임이나 보증금은 바꿀 수 없습니다."),
            ("human", "role_swap", "unsupported", "임대인이 계약갱신을 요구하면 임차인은 정당한 사유 없이 거절하지 못한다."),
            ("human", "number", "unsupported", "갱신되는 임대차의 존속기간은 1년으로 본다."),
            ("model", "condition", "unsupported", "세입자가 차임을 한 번이라도 연체한 사실이 있으면 집주인은 계약갱신 요구를 거절할 수 있습니다."),
            ("human", "article", "unsupported", "주택임대차보호법 제6조의2에 따르면 임차인은 계약갱신요구권을 1회에 한하여 행사할 수 있다."),
        ],
    },
    {
        "origin": IM.format("제23조"),
        "lang": "ko",
        "question": "한국에서 태어난 외국인 아이는 언제까지 체류자격을 받아야 하나요?",
        "evidence": "제23조 (체류자격 부여) ① 다음 각 호의 어느 하나에 해당하는 외국인이 제10조에 따른 체류자격을 가지지 못하고 대한민국에 체류하게 되는 경우에는 다음 각 호의 구분에 따른 기간 이내에 대통령령으로 정하는 바에 따라 체류자격을 받아야 한다. 1. 대한민국에서 출생한 외국인: 출생한 날부터 90일 2. 대한민국에서 체류 중 대한민국의 국적을 상실하거나 이탈하는 등 그 밖의 사유가 발생한 외국인: 그 사유가 발생한 날부터 60일 ② 제1항에 따른 체류자격 부여의 심사기준은 법무부령으로 정한다.",
        "claims": [
            ("human", "paraphrase", "supported", "대한민국에서 출생한 외국인은 출생한 날부터 90일 이내에 체류자격을 받아야 한다."),
            ("model", "paraphrase", "supported", "한국에 체류하던 중 국적을 상실하거나 이탈한 외국인은 그 사유가 생긴 날부터 60일 안에 체류자격을 받아야 하며, 체류자격 부여의 심사기준은 법무부령으로 정합니다."),
            ("human", "number", "unsupported", "대한민국에서 출생한 외국인은 출생한 날부터 30일 이내에 체류자격을 받아야 한다."),
            ("model", "date", "unsupported", "대한민국에서 태어난 외국인 아이는 출생신고를 한 날부터 90일 이내에 체류자격을 받으면 됩니다."),
            ("human", "name", "unsupported", "체류자격 부여의 심사기준은 대통령령으로 정한다."),
            ("model", "role_swap", "unsupported", "출생한 외국인의 기한은 60일이고, 국적을 상실하거나 이탈한 외국인의 기한은 90일입니다."),
            ("human", "scope", "unsupported", "대한민국에 체류하는 모든 외국인은 입국한 날부터 90일 이내에 체류자격을 받아야 한다."),
            ("model", "negation", "unsupported", "대한민국에서 출생한 외국인은 체류자격 없이도 계속 체류할 수 있어 따로 체류자격을 받을 필요가 없습니다."),
        ],
    },
]
