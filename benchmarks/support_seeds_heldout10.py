# ruff: noqa: E501  (data: one claim or passage a line)
"""Tenth held-out seeds for ``make_support_pairs.py`` (split ``heldout10``): written and committed
before any change of the eleventh pass (the learned support decision), from passages used by no other
split and by no row of ``kr_support_pairs.jsonl``, and measured once on unchanged code. Never used to
fit, weigh or choose anything.

Every perturbation kind beside faithful paraphrases: negation, number, date, name, role_swap,
proviso, condition, article, scope; the generator adds one ``unrelated`` claim a passage. Human
claims are short FEVER-like statements; model claims are written the way an LLM answers (a lead,
several sentences, a hedge or a summary).

Evidence: Python 3.11 documentation (functools.lru_cache, json.dumps, subprocess.run, time.monotonic,
shutil.rmtree, os.makedirs, collections.deque, pathlib.Path.mkdir; PSF License; reST markup dropped), 근로기준법 제26조, 제36조, 제54조
(public domain, 저작권법 제7조). Each claim: (set, kind, label, claim).
"""

KB = "근로기준법 {} (법률, 2024-10-22, MST265959; public domain, 저작권법 제7조)"
PY = "python-docs {} (Python 3.11.2, PSF License)"

SEEDS = [
    {
        "origin": PY.format("library/functools.rst"),
        "lang": "en",
        "question": "How does functools.lru_cache decide what to keep?",
        "evidence": "@functools.lru_cache(maxsize=128, typed=False): Decorator to wrap a function with a memoizing callable that saves up to the maxsize most recent calls. It can save time when an expensive or I/O bound function is periodically called with the same arguments. Since a dictionary is used to cache results, the positional and keyword arguments to the function must be hashable. If maxsize is set to None, the LRU feature is disabled and the cache can grow without bound. If typed is set to true, function arguments of different types will be cached separately. For example, f(3) and f(3.0) will be treated as distinct calls with distinct results.",
        "claims": [
            ("human", "paraphrase", "supported", "lru_cache keeps at most maxsize of the most recent calls."),
            ("model", "paraphrase", "supported", "lru_cache memoizes a function so that repeated calls with the same arguments are served from a cache. Because the results live in a dictionary, the arguments you pass have to be hashable. If you set maxsize to None, the LRU behaviour is turned off and the cache can grow without limit."),
            ("human", "paraphrase", "supported", "With typed set to true, lru_cache caches f(3) and f(3.0) as separate calls."),
            ("human", "number", "unsupported", "By default lru_cache saves up to the 256 most recent calls."),
            ("model", "negation", "unsupported", "One thing to keep in mind: the arguments to a function wrapped with lru_cache do not need to be hashable, since the cache compares them by value."),
            ("model", "condition", "unsupported", "If you set maxsize to 0, the LRU feature is disabled and the cache grows without bound, which is handy for small pure functions."),
            ("human", "scope", "unsupported", "lru_cache always treats f(3) and f(3.0) as distinct calls."),
            ("human", "name", "unsupported", "lru_cache stores its results in a list."),
        ],
    },
    {
        "origin": PY.format("library/json.rst"),
        "lang": "en",
        "question": "What do ensure_ascii and indent do in json.dumps?",
        "evidence": "If ensure_ascii is true (the default), the output is guaranteed to have all incoming non-ASCII characters escaped. If ensure_ascii is false, these characters will be output as-is. If indent is a non-negative integer or string, then JSON array elements and object members will be pretty-printed with that indent level. An indent level of 0, negative, or \"\" will only insert newlines. None (the default) selects the most compact representation. Using a positive integer indent indents that many spaces per level. If sort_keys is true (default: False), then the output of dictionaries will be sorted by key.",
        "claims": [
            ("human", "paraphrase", "supported", "json.dumps escapes non-ASCII characters by default."),
            ("model", "paraphrase", "supported", "If you want readable output, pass an indent: a positive integer indents that many spaces per level, while 0, a negative number or an empty string only inserts newlines. Leaving indent as None, the default, gives the most compact form."),
            ("human", "paraphrase", "supported", "json.dumps sorts dictionary keys only when sort_keys is true."),
            ("human", "negation", "unsupported", "ensure_ascii is false by default in json.dumps."),
            ("model", "role_swap", "unsupported", "According to the docs, setting ensure_ascii to false escapes all non-ASCII characters, whereas the default true value writes them out as-is."),
            ("model", "number", "unsupported", "An indent level of 1, a negative number or an empty string will only insert newlines, with no indentation."),
            ("human", "condition", "unsupported", "json.dumps sorts dictionary keys whenever indent is set."),
            ("human", "scope", "unsupported", "Any indent value passed to json.dumps pretty-prints with spaces per level."),
        ],
    },
    {
        "origin": PY.format("library/subprocess.rst"),
        "lang": "en",
        "question": "What happens when subprocess.run times out or the command fails?",
        "evidence": "subprocess.run(args, *, stdin=None, input=None, stdout=None, stderr=None, capture_output=False, shell=False, cwd=None, timeout=None, check=False, encoding=None, errors=None, text=None, env=None, universal_newlines=None, **other_popen_kwargs): Run the command described by args. Wait for command to complete, then return a CompletedProcess instance. The timeout argument is passed to Popen.communicate(). If the timeout expires, the child process will be killed and waited for. The TimeoutExpired exception will be re-raised after the child process has terminated. If check is true, and the process exits with a non-zero exit code, a CalledProcessError exception will be raised. Attributes of that exception hold the arguments, the exit code, and stdout and stderr if they were captured.",
        "claims": [
            ("human", "paraphrase", "supported", "subprocess.run waits for the command to finish and returns a CompletedProcess instance."),
            ("model", "paraphrase", "supported", "When the timeout expires, subprocess.run kills the child process and waits for it, and only after the child has terminated does it re-raise TimeoutExpired. So you will not be left with a stray process."),
            ("model", "paraphrase", "supported", "If you pass check=True and the command exits with a non-zero code, run raises CalledProcessError; the exception carries the arguments, the exit code and any captured stdout and stderr."),
            ("human", "negation", "unsupported", "When the timeout of subprocess.run expires, the child process is not killed."),
            ("human", "name", "unsupported", "With check set to true, a non-zero exit code makes subprocess.run raise TimeoutExpired."),
            ("model", "condition", "unsupported", "In practice, subprocess.run raises CalledProcessError for any non-zero exit code, even when check is left at its default."),
            ("model", "role_swap", "unsupported", "The docs say the TimeoutExpired exception is raised first, and the child process is killed only after the exception has been handled."),
            ("human", "scope", "unsupported", "The CalledProcessError raised by subprocess.run always holds the command's stdout and stderr."),
        ],
    },
    {
        "origin": PY.format("library/time.rst"),
        "lang": "en",
        "question": "What does time.monotonic() measure?",
        "evidence": "time.monotonic() -> float: Return the value (in fractional seconds) of a monotonic clock, i.e. a clock that cannot go backwards. The clock is not affected by system clock updates. The reference point of the returned value is undefined, so that only the difference between the results of two calls is valid. Use monotonic_ns() to avoid the precision loss caused by the float type. New in version 3.3. Changed in version 3.5: The function is now always available and always system-wide.",
        "claims": [
            ("human", "paraphrase", "supported", "time.monotonic() returns the value of a clock that cannot go backwards."),
            ("model", "paraphrase", "supported", "time.monotonic() is the clock to use for measuring elapsed time: updates to the system clock do not affect it. Its reference point is undefined, so only the difference between two calls is meaningful."),
            ("human", "paraphrase", "supported", "Since Python 3.5, time.monotonic() is always available and system-wide."),
            ("human", "date", "unsupported", "time.monotonic() was added in Python 3.5."),
            ("model", "negation", "unsupported", "Keep in mind that time.monotonic() can jump when the system clock is updated, so it is not safe for timing."),
            ("model", "scope", "unsupported", "The value returned by time.monotonic() is the number of seconds since the Unix epoch, so a single reading is meaningful on its own."),
            ("human", "name", "unsupported", "Use perf_counter_ns() to avoid the precision loss caused by the float type of time.monotonic()."),
            ("human", "number", "unsupported", "time.monotonic() returns its value in whole milliseconds."),
        ],
    },
    {
        "origin": PY.format("library/shutil.rst"),
        "lang": "en",
        "question": "How does shutil.rmtree handle errors?",
        "evidence": "shutil.rmtree(path, ignore_errors=False, onerror=None, *, dir_fd=None): Delete an entire directory tree; path must point to a directory (but not a symbolic link to a directory). If ignore_errors is true, errors resulting from failed removals will be ignored; if false or omitted, such errors are handled by calling a handler specified by onerror or, if that is omitted, they raise an exception. If onerror is provided, it must be a callable that accepts three parameters: function, path, and excinfo.",
        "claims": [
            ("human", "paraphrase", "supported", "shutil.rmtree deletes a whole directory tree."),
            ("model", "paraphrase", "supported", "By default rmtree does not swallow errors: if a removal fails and you gave no onerror handler, an exception is raised. Passing ignore_errors=True makes it ignore such failures instead."),
            ("human", "paraphrase", "supported", "The onerror callable for shutil.rmtree must accept three parameters: function, path and excinfo."),
            ("human", "negation", "unsupported", "The path given to shutil.rmtree may be a symbolic link to a directory."),
            ("human", "number", "unsupported", "The onerror handler of shutil.rmtree must accept two parameters."),
            ("model", "proviso", "unsupported", "When ignore_errors is false, rmtree always raises an exception on a failed removal; the onerror argument only matters when ignore_errors is true."),
            ("model", "condition", "unsupported", "According to the docs, rmtree ignores failed removals whenever an onerror handler is provided."),
            ("model", "role_swap", "unsupported", "The docs say that when ignore_errors is true, failed removals raise an exception, and when it is false they are ignored."),
        ],
    },
    {
        "origin": PY.format("library/os.rst"),
        "lang": "en",
        "question": "What does os.makedirs do when the directory exists?",
        "evidence": "os.makedirs(name, mode=0o777, exist_ok=False): Recursive directory creation function. Like mkdir(), but makes all intermediate-level directories needed to contain the leaf directory. The mode parameter is passed to mkdir() for creating the leaf directory. If exist_ok is False (the default), a FileExistsError is raised if the target directory already exists. makedirs() will become confused if the path elements to create include pardir (eg. \"..\" on UNIX systems). This function handles UNC paths correctly. Changed in version 3.7: The mode argument no longer affects the file permission bits of newly created intermediate-level directories.",
        "claims": [
            ("human", "paraphrase", "supported", "os.makedirs creates all the intermediate directories needed to hold the leaf directory."),
            ("model", "paraphrase", "supported", "If the target directory already exists and you leave exist_ok at its default of False, os.makedirs raises FileExistsError. Also note that since Python 3.7 the mode argument only applies to the leaf directory, not to the intermediate ones it creates."),
            ("human", "negation", "unsupported", "os.makedirs handles path elements that include '..' without trouble."),
            ("human", "name", "unsupported", "os.makedirs raises IsADirectoryError if the target directory already exists and exist_ok is False."),
            ("model", "date", "unsupported", "Since Python 3.9, the mode argument of os.makedirs no longer affects the permission bits of new intermediate directories."),
            ("model", "number", "unsupported", "By default os.makedirs uses a mode of 0o755 for the directories it creates."),
            ("human", "scope", "unsupported", "The mode argument of os.makedirs sets the permission bits of every directory it creates."),
            ("model", "condition", "unsupported", "os.makedirs raises FileExistsError for an existing target directory only when exist_ok is True."),
        ],
    },
    {
        "origin": PY.format("library/collections.rst"),
        "lang": "en",
        "question": "What happens when a bounded deque is full?",
        "evidence": "class collections.deque([iterable[, maxlen]]): Returns a new deque object initialized left-to-right (using append()) with data from iterable. If iterable is not specified, the new deque is empty. Deques support thread-safe, memory efficient appends and pops from either side of the deque with approximately the same O(1) performance in either direction. If maxlen is not specified or is None, deques may grow to an arbitrary length. Otherwise, the deque is bounded to the specified maximum length. Once a bounded length deque is full, when new items are added, a corresponding number of items are discarded from the opposite end.",
        "claims": [
            ("human", "paraphrase", "supported", "A deque without a maxlen can grow to any length."),
            ("model", "paraphrase", "supported", "A deque gives you thread-safe, memory efficient appends and pops from both ends, with roughly O(1) cost in either direction. If you give it a maxlen, it is bounded: once it is full, adding new items discards the same number of items from the opposite end."),
            ("human", "paraphrase", "supported", "A deque created without an iterable starts empty."),
            ("human", "negation", "unsupported", "Appends and pops on a deque are not thread-safe."),
            ("model", "role_swap", "unsupported", "When a bounded deque is full, appending on the right discards items from the right end, the same end the new items were added to."),
            ("model", "condition", "unsupported", "According to the docs, a deque is bounded to a maximum length of 0 whenever maxlen is None."),
            ("human", "number", "unsupported", "Appends and pops at either end of a deque take O(n) time."),
            ("human", "name", "unsupported", "A deque is initialized from its iterable using appendleft()."),
        ],
    },
    {
        "origin": PY.format("library/pathlib.rst"),
        "lang": "en",
        "question": "How does Path.mkdir handle missing parents and existing directories?",
        "evidence": "Path.mkdir(mode=0o777, parents=False, exist_ok=False): Create a new directory at this given path. If mode is given, it is combined with the process' umask value to determine the file mode and access flags. If the path already exists, FileExistsError is raised. If parents is true, any missing parents of this path are created as needed; they are created with the default permissions without taking mode into account (mimicking the POSIX mkdir -p command). If parents is false (the default), a missing parent raises FileNotFoundError. If exist_ok is false (the default), FileExistsError is raised if the target directory already exists. If exist_ok is true, FileExistsError will not be raised unless the given path already exists in the file system and is not a directory (same behavior as the POSIX mkdir -p command).",
        "claims": [
            ("human", "paraphrase", "supported", "With parents left at its default, Path.mkdir raises FileNotFoundError when a parent is missing."),
            ("model", "paraphrase", "supported", "Passing parents=True makes Path.mkdir create any missing parent directories, much like mkdir -p; those parents get the default permissions and ignore the mode argument. The mode you pass is combined with the process umask."),
            ("model", "paraphrase", "supported", "With exist_ok=True, Path.mkdir does not raise FileExistsError for an existing directory; it still raises it if the path exists and is not a directory."),
            ("human", "negation", "unsupported", "Path.mkdir does not combine mode with the process umask."),
            ("human", "name", "unsupported", "If parents is false, a missing parent makes Path.mkdir raise FileExistsError."),
            ("model", "proviso", "unsupported", "With exist_ok=True, Path.mkdir never raises FileExistsError, whatever already sits at the path."),
            ("model", "scope", "unsupported", "When parents is true, the missing parents are created with the mode you passed to Path.mkdir."),
            ("human", "condition", "unsupported", "Path.mkdir raises FileExistsError for an existing directory only when parents is true."),
        ],
    },
    {
        "origin": KB.format("제26조"),
        "lang": "ko",
        "question": "회사가 해고하려면 미리 알려줘야 하나요?",
        "evidence": "제26조 (해고의 예고) 사용자는 근로자를 해고(경영상 이유에 의한 해고를 포함한다)하려면 적어도 30일 전에 예고를 하여야 하고, 30일 전에 예고를 하지 아니하였을 때에는 30일분 이상의 통상임금을 지급하여야 한다. 다만, 다음 각 호의 어느 하나에 해당하는 경우에는 그러하지 아니하다. 1. 근로자가 계속 근로한 기간이 3개월 미만인 경우 2. 천재ㆍ사변, 그 밖의 부득이한 사유로 사업을 계속하는 것이 불가능한 경우 3. 근로자가 고의로 사업에 막대한 지장을 초래하거나 재산상 손해를 끼친 경우로서 고용노동부령으로 정하는 사유에 해당하는 경우",
        "claims": [
            ("human", "paraphrase", "supported", "사용자는 근로자를 해고하려면 적어도 30일 전에 예고하여야 한다."),
            ("model", "paraphrase", "supported", "회사는 근로자를 해고하기 30일 전까지 예고해야 하고, 예고하지 않았다면 30일분 이상의 통상임금을 지급해야 합니다. 다만 계속 근로한 기간이 3개월 미만인 근로자에게는 이 규정이 적용되지 않습니다."),
            ("human", "number", "unsupported", "사용자는 근로자를 해고하려면 적어도 14일 전에 예고하여야 한다."),
            ("model", "proviso", "unsupported", "해고 예고는 예외 없이 모든 근로자에게 적용되므로, 회사는 어떤 경우에도 30일 전에 예고하거나 통상임금을 지급해야 합니다."),
            ("human", "scope", "unsupported", "경영상 이유에 의한 해고에는 해고 예고 규정이 적용되지 않는다."),
            ("model", "name", "unsupported", "예고 없이 해고할 수 있는 근로자의 귀책 사유는 대통령령으로 정하는 사유에 해당해야 합니다."),
            ("human", "negation", "unsupported", "30일 전에 예고하지 않은 사용자는 통상임금을 지급할 필요가 없다."),
            ("model", "article", "unsupported", "근로기준법 제27조에 따르면 사용자는 근로자를 해고하려면 적어도 30일 전에 예고하여야 합니다."),
            ("human", "number", "unsupported", "계속 근로한 기간이 6개월 미만인 근로자에게는 해고 예고를 하지 않아도 된다."),
        ],
    },
    {
        "origin": KB.format("제36조"),
        "lang": "ko",
        "question": "퇴사하면 남은 월급은 언제까지 받아야 하나요?",
        "evidence": "제36조 (금품 청산) 사용자는 근로자가 사망 또는 퇴직한 경우에는 그 지급 사유가 발생한 때부터 14일 이내에 임금, 보상금, 그 밖의 모든 금품을 지급하여야 한다. 다만, 특별한 사정이 있을 경우에는 당사자 사이의 합의에 의하여 기일을 연장할 수 있다.",
        "claims": [
            ("human", "paraphrase", "supported", "근로자가 퇴직하면 사용자는 14일 이내에 임금과 그 밖의 모든 금품을 지급하여야 한다."),
            ("model", "paraphrase", "supported", "퇴직하거나 사망한 근로자의 임금, 보상금 등은 지급 사유가 생긴 때부터 14일 안에 지급되어야 합니다. 다만 특별한 사정이 있으면 당사자끼리 합의해서 그 기일을 늦출 수 있습니다."),
            ("human", "number", "unsupported", "근로자가 퇴직하면 사용자는 30일 이내에 모든 금품을 지급하여야 한다."),
            ("model", "proviso", "unsupported", "퇴직한 근로자에게는 14일 안에 금품을 지급해야 하고, 이 기일은 어떤 경우에도 연장할 수 없습니다."),
            ("human", "condition", "unsupported", "사용자는 특별한 사정이 있으면 근로자의 동의 없이 금품 지급 기일을 연장할 수 있다."),
            ("model", "date", "unsupported", "회사는 퇴직 의사를 밝힌 날부터 14일 이내에 남은 임금을 지급하면 됩니다."),
            ("human", "negation", "unsupported", "근로자가 사망한 경우에는 사용자가 14일 이내에 금품을 지급할 의무가 없다."),
            ("model", "scope", "unsupported", "14일 이내 지급 의무는 임금에만 적용되고 보상금 등 다른 금품에는 적용되지 않습니다."),
        ],
    },
    {
        "origin": KB.format("제54조"),
        "lang": "ko",
        "question": "하루 8시간 일하면 쉬는 시간은 얼마나 주어야 하나요?",
        "evidence": "제54조 (휴게) ① 사용자는 근로시간이 4시간인 경우에는 30분 이상, 8시간인 경우에는 1시간 이상의 휴게시간을 근로시간 도중에 주어야 한다. ② 휴게시간은 근로자가 자유롭게 이용할 수 있다.",
        "claims": [
            ("human", "paraphrase", "supported", "근로시간이 8시간이면 사용자는 1시간 이상의 휴게시간을 근로시간 도중에 주어야 한다."),
            ("model", "paraphrase", "supported", "4시간을 일하면 30분 이상, 8시간을 일하면 1시간 이상의 휴게시간을 근무 중간에 받아야 합니다. 그리고 그 휴게시간은 근로자가 자유롭게 쓸 수 있습니다."),
            ("human", "number", "unsupported", "근로시간이 4시간인 경우에는 15분 이상의 휴게시간을 주어야 한다."),
            ("model", "role_swap", "unsupported", "근로시간이 4시간이면 1시간 이상, 8시간이면 30분 이상의 휴게시간을 주어야 합니다."),
            ("human", "negation", "unsupported", "휴게시간은 근로자가 자유롭게 이용할 수 없다."),
            ("model", "condition", "unsupported", "휴게시간은 근로시간이 끝난 뒤에 한꺼번에 주어도 됩니다."),
            ("human", "article", "unsupported", "근로기준법 제55조에 따르면 근로시간이 8시간인 경우 1시간 이상의 휴게시간을 주어야 한다."),
            ("model", "scope", "unsupported", "근로시간과 관계없이 모든 근로자에게 하루 1시간 이상의 휴게시간을 주어야 합니다."),
        ],
    },
]
