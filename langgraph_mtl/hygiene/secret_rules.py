"""The project's secret rules: what ``detect-secrets`` misses or finds only part of (provider key
formats, private-key blocks, passwords in assignments, flags, URLs and prose, password hashes).
Each rule is (kind, pattern, the group holding the secret: 0 the whole match, -1 the last group
that matched). Used by :mod:`.redaction`."""

from __future__ import annotations

import re

__all__ = ["RULES", "SECRET_NAME_WORDS"]

# words that make an environment-style name (OPENAI_API_KEY, PGPASSWORD) a secret's name
SECRET_NAME_WORDS = r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|PASS|PWD|CREDENTIALS?|AUTH"

_SCHEMES = (
    r"(?:basic|bearer|digest|token|apikey|api-key|negotiate|ntlm|oauth|hawk|dpop|mutual|hoba|"
    r"aws4-hmac-sha256|scram-sha-\d+|sso-key|key|jwt|otp)\s+"
)
# what may follow the secret word in a setting's name: secret_key_base, password_hash, token.value
_NAME_SUFFIX = (
    r"(?:[_.-](?:key|base|value|str|string|hash|hex|b64|base64|bytes|data|raw|plain|text))*"
)
# "password" in other languages (German, Spanish, French, Portuguese, Dutch, Swedish, Finnish,
# Polish, Czech, Hungarian, Turkish, Vietnamese, Russian, Chinese, Japanese, Korean)
_PASSWORD_ELSEWHERE = (
    r"passwort|kennwort|contrase(?:ñ|n)a|mot[ _-]?de[ _-]?passe|senha|wachtwoord|l(?:ö|o)senord|"
    r"salasana|has(?:ł|l)o|heslo|jelsz(?:ó|o)|(?:ş|s)ifre|m(?:ậ|a)t[ _]?kh(?:ẩ|a)u|пароль|"
    r"密码|密碼|口令|パスワード|비밀번호"
)
# a setting named for a secret, then its assignment: password=, api_key: , token.value =
_ASSIGNED = (
    r"(?i)(?:password|passwd|passphrase|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|"
    r"token|private[_-]?key(?:[_-]?id)?|(?<![a-z_.])(?:(?:[a-z0-9]{1,20}[_-])?(?:db|user|admin|root|smtp|"
    r"mail|ftp|sftp|sql|mysql|pg|redis|mongo|amqp|ldap|bind|proxy|wifi|vpn|login|ssh|sudo|become|"
    r"vault|master|keystore|truststore|store|smb|rdp|vnc|winrm)[_-]?)?pass|"
    + _PASSWORD_ELSEWHERE
    + r")"
    + _NAME_SUFFIX
    + r"\b[\"']?\s*"
    # a typed declaration (TOKEN: &str = ..., password: str = ...), Go's :=, or = and : (also
    # the full-width colon)
    r"(?::\s*[&*\w<>\[\]'.]{1,40}(?:\s+[\w<>\[\]'.]{1,20}){0,2}\s*=|:=|[=:\uff1a])\s*"
    r"(?:!!\w{1,20}\s+)?"  # a YAML core tag: password: !!str ...
)
# not a value but code: no value (None, null, false, ...) or an object's (self.password,
# settings.DB_PASSWORD)
_NOT_A_VALUE = (
    r"(?!(?:None|null|NULL|Null|nil|true|false|True|False|TRUE|FALSE|undefined|nullptr)"
    r"(?![^\s,;)\]}\"'])|(?:self|cls|this|config|conf|cfg|settings|os|env|environ|args|opts|"
    r"options|params|ctx|context|request|req|creds|credentials|secrets|vault|app|process|user|"
    r"account|form|data|kwargs|props|auth)(?:\.[A-Za-z_][A-Za-z0-9_]*)+(?![^\s,;)\]}\"']))"
)
# what an unquoted value may hold
_VALUE_CHAR = r"[^\s\"',;()\[\]{}<>]"
# a name that holds a secret wherever the secret word sits in it
_SECRET_NAME = (
    r"(?=[a-z0-9_.-]*?(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|"
    r"private[_-]?key|access[_-]?key|credential))[a-z0-9_.-]*+"
)
# a value that looks made up as a password: a character other than a letter or digit, or
# upper and lower case letters and a digit
_STRONG = (
    r"(?-i:(?=[^\s`'\"]*[!@#$%^&*+=~|\\<>?])|(?=[^\s`'\"]*[A-Z])(?=[^\s`'\"]*[a-z])"
    r"(?=[^\s`'\"]*[0-9]))"
)
# (kind, pattern, group holding the secret; 0 = the whole match, -1 = the last group that
# matched, for a value either quoted or bare)
RULES: list[tuple[str, re.Pattern[str], int]] = [
    ("private-key", re.compile(
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\Z)",
        re.DOTALL), 0),
    # a PuTTY key file's private lines: the base64 lines after its Private-Lines header
    ("private-key", re.compile(r"(?m)^Private-Lines:[ \t]*\d+[ \t]*\r?\n((?:[A-Za-z0-9+/=]+(?:\r?\n|$))+)"), 1),
    ("url-credentials", re.compile(r"[a-zA-Z0-9+.-]://[^/\s:@]*+:([^@\s/]+)@"), 1),
    # a token as the whole user part of a URL: https://ghp_xxx@github.com/...
    ("url-credentials", re.compile(r"[a-zA-Z0-9+.-]://([A-Za-z0-9_.~-]{16,}+)@"), 1),
    ("url-query-secret", re.compile(
        r"(?i)[?&;](?:[a-z0-9_.-]*(?:token|secret|passw(?:or)?d|pwd|api[_-]?key|apikey|auth|"
        r"signature|sig|credential|session|key))=([^&#\s\"'<>]{3,})"), 1),
    ("authorization-header", re.compile(  # a quoted value, JSON escapes included
        r"(?i)\b(?:proxy-)?authori[sz]ation\b[\"']?\s*[:=]\s*([\"'])(?:" + _SCHEMES + r")?"
        r"((?:\\.|(?!\1)[^\n\\]){4,})"), 2),
    ("authorization-header", re.compile(
        r"(?i)\bDigest[ \t]+((?:[a-z-]+=(?:\"[^\"\n]*\"|[^,\s\"]+),?[ \t]*)+)"), 1),
    ("authorization-header", re.compile(
        r"(?i)\b(?:proxy-)?authori[sz]ation\b\s*[:=]\s*(?![\"'])(?:" + _SCHEMES + r")?"
        r"([^\n\"'\\\[]{4,})(?=[\n\"'\\]|$)"), 1),
    ("auth-scheme", re.compile(
        r"\b(?:Bearer|Basic|bearer)\s+(?=[A-Za-z0-9._~+/=-]*\d)([A-Za-z0-9._~+/=-]{12,})"), 1),
    ("api-key-header", re.compile(
        r"(?i)\b(?:x-)?(?:api[_-]?key|auth[_-]?token|access[_-]?token|session[_-]?token|"
        r"secret[_-]?key|private[_-]?token|csrf[_-]?token|amz-security-token)\b[\"']?\s*:\s*"
        r"[\"']?([^\s\"',;]{4,})"), 1),
    ("cookie", re.compile(r"(?i)\b(?:set-)?cookie\s*:\s*([\w.-]+=[^\n\"']{3,})"), 1),
    # secrets glued to or following a command-line flag
    ("cli-password", re.compile(
        r"\b(?:mysql\w*|mariadb\w*)\b[^\n|;&]{0,200}?\s-p(?![\s-])([^\s'\"]+)"), 1),
    ("cli-password", re.compile(
        r"\b(?:mysql\w*|mariadb\w*)\b[^\n|;&]{0,200}?\s-p(['\"])(.+?)\1"), 2),
    ("cli-password", re.compile(r"\bsshpass\s+-p\s*(['\"]?)([^\s'\"]+)\1"), 2),
    ("cli-password", re.compile(r"\bredis-cli\b[^\n|;&]{0,200}?\s-a\s+(['\"]?)([^\s'\"]+)\1"), 2),
    ("cli-password", re.compile(
        r"(?i)(?<!\S)--?(?:password|passwd|pass|pwd|token|api-?key|secret|client-secret|auth-token|"
        r"access-token)(?:=|\s+)(['\"])(.+?)\1"), 2),
    ("cli-password", re.compile(
        r"(?i)(?<!\S)--?(?:password|passwd|pass|pwd|token|api-?key|secret|client-secret|auth-token|"
        r"access-token)(?:=|\s+)(?!['\"-]|[<$]\()([^\s'\"]{3,})"), 1),
    ("cli-password", re.compile(
        r"\b(?:curl|wget|http|git)\b[^\n|;&]{0,200}?\s(?:-u|--user|--http-password)[=\s]+['\"]?"
        r"[^:\s'\"]*:([^\s'\"@]+)"), 1),
    # archive passwords (zip -P secret, 7z -psecret) and LDAP binds (ldapsearch -w secret)
    ("cli-password", re.compile(
        r"\b(?:zip|unzip|7z|7za|7zr|rar|unrar)\b[^\n|;&]{0,80}?\s-[pP]\s*([^\s'\"-][^\s'\"]{2,})"), 1),
    ("cli-password", re.compile(r"\bldap\w+\b[^\n|;&]{0,120}?\s-w\s+['\"]?([^\s'\"]+)"), 1),
    # lftp -u user,secret; smbclient -U user%secret
    ("cli-password", re.compile(
        r"\b(?:lftp|smbclient|rpcclient)\b[^\n|;&]{0,200}?\s-[uU][=\s]+['\"]?[^,%\s'\"]+[,%]"
        r"([^\s'\"]+)"), 1),
    # quoted values, which may hold spaces: password = "correct horse battery staple"
    ("password", re.compile(_ASSIGNED + r"(['\"])(.{4,512}?)\1"), 2),
    ("connection-string", re.compile(r"(?i)\b(?:password|pwd)\s*=\s*\{([^}]{0,512})\}"), 1),
    # a subscript or a dict key: app.config['SECRET_KEY'] = '...', {'db_password': '...'}
    ("password", re.compile(
        r"(?i)[\[{,]\s*(['\"])" + _SECRET_NAME + r"\1\s*\]?\s*[:=]\s*(['\"])(.{4,512}?)\2"), 3),
    # an element: <password>...</password>, <apiKey>...</apiKey>
    ("password", re.compile(r"(?i)<(" + _SECRET_NAME + r")(?:\s[^>]{0,200})?>([^<\n]{4,200})</\1>"), 2),
    # the word, then a quoted value: WITH PASSWORD '...', passphrase '...'
    ("password", re.compile(
        r"(?i)\b(?:password|passwd|passphrase)\s+(?:(?:to|as|is|was|=|:)\s+)?(['\"])(.{4,512}?)\1"), 2),
    ("sql-password", re.compile(
        r"(?i)\b(?:identified\s+(?:with\s+\S+\s+)?by(?:\s+password)?|"
        r"set\s+password\s+(?:for\s+\S+\s*)?=\s*(?:password\s*\()?)\s*(['\"])(.+?)\1"), 2),
    # prose: "the password is Tr0ub4dor&3", "my pin is 4921" (a plain word is left: "is hashed")
    # ... also with what it is for: "the root password for the box is Winter2024!"
    ("password", re.compile(
        r"(?i)\b(?:password|passwd|passphrase|passcode|pin(?:\s+code)?|secret(?:\s+key)?|"
        r"(?:wi-?fi|wpa2?|network|admin|root|login)\s+(?:key|pass))"
        r"(?:\s+(?:for|of|on|to)\s+(?:the\s+|my\s+|our\s+|this\s+|that\s+)?[\w.-]{1,40}"
        r"(?:\s+[\w.-]{1,40})?)?"
        r"\s+(?:is|was|=|:)\s+(?:set\s+to\s+|now\s+)?[`'\"]?"
        r"(?=[^\s`'\"]*[0-9!@#$%^&*+=~|\\/<>])([^\s`'\"]{4,})"), 1),
    # "... user admin and password admin123", "log in with password Pa55"
    ("password", re.compile(
        r"(?i)\b(?:with|and|using|via)\s+(?:the\s+)?(?:password|passwd|passphrase|pin)\s+"
        r"[`'\"]?(?=[^\s`'\"]*[0-9!@#$%^&*+=~|\\/<>])([^\s`'\",;]{4,})"), 1),
    # a user and a password given together: "use admin / S3cure!Pass", "credentials: admin:pw"
    ("password", re.compile(
        r"(?i)\b(?:use|with|credentials?|creds|login|log in(?: with)?|sign in(?: with)?)[:\s]+"
        r"['\"`]?[\w.@+-]{2,40}(?:\s+/\s+|:(?!:))" + _STRONG + r"([^\s`'\",;]{4,})"), 1),
    # a wallet's recovery words (BIP-39: 12 to 24 lower-case words of 3 to 8 letters)
    ("seed-phrase", re.compile(
        r"(?i:\b(?:seed|recovery|backup)\s+(?:phrase|words)|\bmnemonic(?:\s+phrase)?)\s*[:=]\s*['\"]?"
        r"((?:[a-z]{3,8} ){11,23}[a-z]{3,8})\b"), 1),
    # a passphrase set unquoted, words to the end of the line: passphrase: correct horse staple
    ("password", re.compile(
        r"(?im)(?<![a-z0-9])pass[_ -]?phrase" + _NAME_SUFFIX + r"[\"']?\s*[:=]\s*" + _NOT_A_VALUE
        + r"((?:[^\s\"'`()\[\]{}=;,]+[ \t]+){2,15}[^\s\"'`()\[\]{}=;,]+)[ \t]*$"), 1),
    # a password passed on a command line: htpasswd -b file user <pw>, openssl -k <pw>,
    # echo <pw> | sudo -S / passwd / chpasswd / ... --password-stdin
    ("cli-password", re.compile(
        r"\bhtpasswd\s+(?:-\w+\s+)*-\w*b\w*\s+(?:-\w+\s+)*\S+\s+\S+\s+(['\"]?)([^\s'\"|;&]+)\1"), 2),
    ("cli-password", re.compile(r"\bopenssl\b[^\n|;&]{0,200}?\s-k\s+(['\"]?)([^\s'\"]+)\1"), 2),
    # openssl's -passin/-passout pass:<pw>; ssh-keygen's new (-N) and old (-P) passphrase
    ("cli-password", re.compile(r"\s-pass(?:in|out)\s+(['\"]?)pass:([^\s'\"]+)\1"), 2),
    ("cli-password", re.compile(
        r"\bssh-keygen\b[^\n|;&]{0,200}?\s-[NP]\s*(?:(['\"])(.+?)\1|(?!['\"-])([^\s'\"]+))"), -1),
    # any other flag named for a secret: -storepass, --keypass, --db-password, --admin_token
    ("cli-password", re.compile(
        r"(?i)(?<!\S)--?(?!no-)(?:[a-z0-9]+[-_])*(?:(?:store|key|src|dest|dst|new|old|trust|root|"
        r"admin|db|master|srcstore|deststore|srckey|destkey|auth|bind|user|login|proxy)?pass"
        r"(?:word|wd|phrase)?|pwd|token|secret|api-?key)(?:=|\s+)"
        r"(?:(['\"])(.+?)\1|(?!['\"-]|\d+(?:\s|$)|[<$]\()([^\s'\"]{3,}))"), -1),
    # a .pgpass line: host:port:database:user:password (the host dotted, localhost or *)
    ("pgpass-password", re.compile(r"(?<![\w:./-])(?:localhost|\*|[\w-]+(?:\.[\w-]+)+):(?:\d{2,5}|\*):[^:\s]+:[^:\s]+:(\S{4,})(?!\S)"), 1),
    # a password hash, crackable offline: crypt(3) ($1$, $5$, $6$, $y$), Apache's $apr1$, bcrypt,
    # argon2
    ("password-hash", re.compile(
        r"\$(?:(?:1|5|6|apr1)\$(?:rounds=\d+\$)?[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{20,}|"
        r"2[abxy]?\$\d\d\$[./A-Za-z0-9]{53}|(?:y|gy|7)\$[./A-Za-z0-9]+\$[./A-Za-z0-9]+\$[./A-Za-z0-9]{20,}|"
        r"argon2(?:id|i|d)\$v=\d+\$m=\d+,t=\d+,p=\d+\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]{16,})"), 0),
    # a registry or cloud login's -p value: docker/az/helm/oc login -u user -p <pw>
    ("cli-password", re.compile(
        r"\b(?:docker|podman|nerdctl|buildah|skopeo|helm|oc|az|cf|crane|oras|regctl|argocd)\b"
        r"[^\n|;&]{0,200}?\blogin\b[^\n|;&]{0,200}?\s-p\s*(['\"]?)((?!-)[^\s'\"]+)\1"), 2),
    # a password as the second positional argument of a login or basic-auth call
    ("password", re.compile(
        r"(?:\.login|\b\w*(?:Basic|Digest|Proxy)Auth|\bauth\s*=\s*)\(\s*(['\"])[^'\"\n]*\1\s*,"
        r"\s*(['\"])([^'\"\n]{4,})\2"), 3),
    # a setting's name, then its value, as a call's arguments: props.setProperty("password", "..."),
    # config.set("db", "password", "..."); a value that looks made up, not a default or a label
    ("password", re.compile(
        r"(?i)\(\s*(?:(['\"])[^'\"\n]{0,40}\1\s*,\s*)?(['\"])" + _SECRET_NAME + r"\2\s*,\s*(['\"])"
        + _STRONG + r"([^'\"\n]{4,512})\3"), 4),
    # a password hashed on the command line: openssl passwd -6 -salt xyz <pw>
    ("cli-password", re.compile(
        r"\bopenssl\s+passwd\b(?:\s+-(?:salt|in)\s+\S+|\s+-[\w-]+)*+\s+(['\"]?)([^\s'\"|;&)<>-][^\s'\"|;&)]*)\1"), 2),
    # a secret echoed into a flag through a subshell: --password-file=<(echo <pw>)
    ("cli-password", re.compile(
        r"(?i)(?<!\S)(?=[\w-]*?(?:pass|secret|token|key|credential))[\w-]*+(?:=|\s+)[<$]\(\s*"
        r"(?:echo|printf)\s+"
        r"(?:-\w+\s+)*(['\"]?)([^\s'\")<][^\s'\")]*)\1"), 2),
    # the output line of a command that prints a token
    ("printed-token", re.compile(
        r"\b(?:auth:token|print-access-token|print-identity-token|get-login-password|"
        r"get-authorization-token|create-token|token create)\b[^\n]*\n\s*(\S{16,})"), 1),
    ("cli-password", re.compile(
        r"\b(?:echo|printf)\s+(?:-\w+\s+)*(['\"]?)([^\s'\"|]{3,}?)\1\s*\|\s*"
        r"(?:sudo\s+(?:-\w+\s+)*-S\b|\S*passwd\b|chpasswd\b|[^\n|;&]*--password-stdin)"), 2),
    ("openai-key", re.compile(r"\bsk-(?:proj-|ant-api\d\d-|ant-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"), 0),
    ("github-token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})"), 0),
    ("gitlab-token", re.compile(
        r"\b(?:gl(?:pat|dt|ptt|rt|cbt|imt|oas|ft|soat|ffct|agent)-|GR1348941)[A-Za-z0-9_-]{20,}"), 0),
    ("slack-token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}"), 0),
    ("google-api-key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}"), 0),
    ("aws-access-key", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), 0),
    ("stripe-key", re.compile(r"\b(?:sk|rk|pk)_(?:live|test)_[0-9a-zA-Z]{16,}"), 0),
    ("huggingface-token", re.compile(r"\bhf_[A-Za-z0-9]{30,}"), 0),
    ("npm-token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"), 0),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"), 0),
    ("env-secret", re.compile(
        r"\b(?=[A-Z][A-Z0-9_]*?(?:" + SECRET_NAME_WORDS + r"))[A-Z][A-Z0-9_]*+"
        r"\s*[=:]\s*(?:!!\w{1,20}\s+)?[\"']?" + _NOT_A_VALUE + r"([^\s\"',;]{4,})"), 1),
    # a value too long for the rule below, whole (it never fails half-way, so it stays linear)
    ("password", re.compile(_ASSIGNED + r"[\"']?(" + _VALUE_CHAR + r"{513,}+)"), 1),
    # not a call, an index or an attribute: code
    ("password", re.compile(
        _ASSIGNED + r"[\"']?" + _NOT_A_VALUE + r"(" + _VALUE_CHAR + r"{4,512})(?![(\[\w.]|\s*=)"), 1),
    ("json-secret", re.compile(
        r"(?i)\"(?=[a-z0-9_-]*?(?:key|token|secret|password|passwd|credential))[a-z0-9_-]*+\"\s*:\s*"
        r"\"([^\"]{4,})\""), 1),
    ("connection-string", re.compile(
        r"(?i)\b(?:password|pwd)\s*=\s*" + _NOT_A_VALUE + r"([^;\s()\[\]{}]+)(?![(\[\w])"), 1),
    # .netrc and ftp scripts: machine <host> login <user> password <secret>, on one line or many
    # (a plain lower-case word is left: "login then password reset" is prose)
    ("netrc-password", re.compile(
        r"\b(?:login|machine)\s+\S+\s+password\s+(?=\S*[^a-z\s])(\S+)"), 1),
    ("netrc-password", re.compile(
        r"\bmachine\s+\S+\s+password\s+(\S+)\s+login\b"), 1),
    # a PEM block (a private key, say) base64-encoded again, as kubeconfig's client-key-data
    ("encoded-pem", re.compile(r"\bLS0tLS1CRUdJTi[A-Za-z0-9+/=]{8,}"), 0),
    # base64 of user:password, as in docker's config.json or .npmrc's _auth
    ("basic-auth-blob", re.compile(
        r"(?i)[\"']?\b_?auth[\"']?\s*[:=]\s*[\"']?"
        r"((?=[A-Za-z0-9+/]*[0-9+/=])(?=[A-Za-z0-9+/]*[A-Z])(?=[A-Za-z0-9+/]*[a-z])"
        r"[A-Za-z0-9+/]{8,}={0,2})"), 1),
    ("provider-key", re.compile(
        r"\b(?:key-[0-9a-z]{32}|AGE-SECRET-KEY-1[0-9A-Z]{50,}|xapp-\d-[A-Z0-9]+-\d+-[a-f0-9]{20,}|"
        r"sq0(?:csp|atp)-[0-9A-Za-z_-]{22,}|lin_api_[A-Za-z0-9]{32,}|ATATT3x[A-Za-z0-9_=-]{20,}|"
        r"dp\.(?:pt|st|sa|ct|scim|audit)\.(?:[a-z0-9_-]{1,40}\.)?[A-Za-z0-9]{32,}|pscale_(?:pw|tkn|oauth)_[A-Za-z0-9_.-]{20,}|"
        r"sntry[su]_[A-Za-z0-9+/=_-]{20,}|GOCSPX-[A-Za-z0-9_-]{24,}|gl(?:sa|c)_[A-Za-z0-9+/=_-]{32,}|ntn_[A-Za-z0-9]{32,}|"
        r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}|do[por]_v1_[a-f0-9]{64}|dapi[a-f0-9]{32}|"
        r"rubygems_[a-f0-9]{48}|pul-[a-f0-9]{40}|FLWSECK(?:_TEST)?-[a-f0-9]{32}-X|"
        r"ya29\.[0-9A-Za-z_-]{20,}|1//0[0-9A-Za-z_-]{20,}|"
        r"SG\.[\w-]{16,32}\.[\w-]{16,64})\b"), 0),  # SendGrid's exact shape, Twilio: detect-secrets
    # prefixes whose tokens may end in "=" or "-" (no word boundary after them)
    ("provider-key", re.compile(
        r"\b(?:whsec_[A-Za-z0-9+/=]{24,}|PMAK-[a-f0-9]{24}-[a-f0-9]{34}|NRAK-[A-Z0-9]{27}|"
        r"tskey-[a-z]+-[A-Za-z0-9-]{16,}|sbp_[a-f0-9]{40}|dckr_pat_[A-Za-z0-9_-]{20,}|"
        r"gsk_[A-Za-z0-9]{40,}|r8_[A-Za-z0-9]{30,}|sk\.eyJ[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{10,}|"
        r"pypi-AgE[A-Za-z0-9_-]{40,}|[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{40,}|"
        r"hv[sbr]\.[A-Za-z0-9_-]{24,}|[A-Za-z0-9_~.-]{3}\dQ~[A-Za-z0-9_~.-]{31,34}|"
        r"[MNO][A-Za-z\d_-]{23,25}\.[A-Za-z\d_-]{6}\.[A-Za-z\d_-]{27,38}|\d{8,10}:AA[A-Za-z0-9_-]{30,})"), 0),
]  # fmt: skip
