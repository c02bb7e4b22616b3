"""What code acts on, for judging it by its effect: secrets (credential files, keys, history),
start-up files, shared places, the home or root folder, and hosts other than this one."""

from __future__ import annotations

import re

__all__ = [
    "HOME",
    "LOCAL",
    "MAX_CODE_CHARS",
    "PERSISTENT",
    "SENSITIVE",
    "SHARED",
    "host_of",
    "names_this_host",
    "remote_host",
    "this_network",
    "touches_secret",
]

MAX_CODE_CHARS = 20_000  # longer code is not parsed

# a secret's file: keys, credentials, tokens, shell history, the environment of a process
SENSITIVE = re.compile(
    r"(?:^|[/\s'\"=@:])(?:~|\$\{?HOME\}?|/root|/home/[^/\s]+)?/?"
    r"(?!\S*\.pub(?:$|[\s'\")]))"  # a public key is no secret
    r"(?:\.ssh/(?:id_\w+|authorized_keys|known_hosts|config)|\.aws/(?:credentials|config)"
    # a folder that holds credentials, whole or by a wildcard (.gnupg and .config/gcloud below)
    r"|\.(?:ssh|aws|kube|password-store)/?\*?|\.config/(?:gh|hub)\b\S*"
    r"|\.local/share/keyrings\S*"
    r"|\.netrc|\.pgpass|\.git-credentials|\.docker/config\.json|\.kube/config|\.npmrc|\.pypirc"
    r"|\.config/gcloud\S*|\.bash_history|\.zsh_history|\.python_history|\.gnupg\S*"
    r"|\.vault-token|etc/(?:shadow|passwd|sudoers)|proc/\w+/environ"
    r"|\S*\.env(?:\.\w+)?|\S*id_(?:rsa|dsa|ecdsa|ed25519)\S*|\S*\.pem|\S*\.p12|\S*\.key)"
    r"(?=$|[\s'\")])",
    re.IGNORECASE,
)
# the home or root folder itself (removing it destroys everything)
HOME = re.compile(r"^(?:~|~/|\$\{?HOME\}?/?|/root/?|/home/?(?:[^/\s]+/?)?|/)$")
# a start-up file: what it holds runs in every later shell, session, commit or boot
PERSISTENT = re.compile(
    r"(?:^|/)(?:\.(?:bash(?:rc|_profile|_login|_logout)|profile|zshrc|zprofile|zshenv|zlogin"
    r"|xinitrc|xprofile|kshrc|cshrc|tcshrc|inputrc)"
    r"|\.config/fish/config\.fish|\.config/autostart/\S+|\.config/systemd/\S+"
    r"|etc/(?:profile(?:\.d/\S*)?|bash\.bashrc|environment|rc\.local|cron\S*|systemd/\S+"
    r"|sudoers(?:\.d/\S*)?|init\.d/\S+|ld\.so\.preload)"
    r"|var/spool/cron\S*|Library/Launch(?:Agents|Daemons)/\S+"
    r"|\.ssh/(?:authorized_keys|rc)|\.git/hooks/\S+|hooks/(?:pre|post)-\S+"
    r"|\S*(?:site|user)customize\.py|\S+\.pth)$",
    re.IGNORECASE,
)
# a place others read: a secret copied there is out
SHARED = re.compile(r"^(?:/tmp|/var/tmp|/dev/shm|/var/www|/srv|/mnt|/media|/public|\S*public_html)")
# this machine
LOCAL = re.compile(r"^(?:localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[?::1\]?)(?::\d+)?$", re.I)
_URL_HOST = re.compile(r"^[a-z][a-z0-9+.-]*://(?:[^@/\s]*@)?([^/:?#\s]+|\[[^\]]+\])", re.I)
_REMOTE_PATH = re.compile(r"^(?:[^@/\s:]+@)?([A-Za-z0-9.-]+|\[[^\]]+\]):(?!//)")


# this machine or its private network: loopback, 10/8, 172.16/12, 192.168/16, link-local and
# private names
_THIS_NETWORK = re.compile(
    r"(?i)localhost|127(?:\.\d{1,3}){3}|\[?::1\]?|0\.0\.0\.0|[\w-]+\.localhost"
    r"|10(?:\.\d{1,3}){3}|192\.168(?:\.\d{1,3}){2}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}"
    r"|169\.254(?:\.\d{1,3}){2}|[\w.-]+\.(?:internal|local|lan|home\.arpa)"
)
# a bare name of one label resolves only through this network's names ("backup-host"); in
# code only, since prose uses one-letter and made-up names for any host
_BARE_NAME = re.compile(r"(?i)[a-z][\w-]*")
# what names this host in a command's argument: the account, the host name, the system
_IDENTITY = re.compile(
    r"\$\(\s*(?:whoami|hostname|id|uname|env|printenv|cat\b)[^)]*\)|`(?:whoami|hostname|id|uname)"
    r"[^`]*`|\$\{?(?:USER|HOSTNAME|LOGNAME|HOME)\b"
)


def this_network(host: str, *, bare_names: bool = False) -> bool:
    """Whether ``host`` (a name or address, maybe with a port) is this machine or its
    private network; ``bare_names`` counts a name of one label as one of its hosts."""
    host = re.sub(r":\d+$", "", host)
    return bool(_THIS_NETWORK.fullmatch(host) or (bare_names and _BARE_NAME.fullmatch(host)))


def names_this_host(arg: str) -> bool:
    """Whether ``arg`` carries this host's identity (``$(whoami)``, ``${HOSTNAME}`` ...)."""
    return _IDENTITY.search(arg) is not None


def host_of(text: str) -> str:
    """The host ``text`` names (a URL, ``user@host:path``, ``host:/path`` or a name with a
    dot), or "" (``name:value`` is no host)."""
    if found := _URL_HOST.match(text):
        return found[1]
    if found := _REMOTE_PATH.match(text):
        host, rest = found[1], text[found.end() :]
        if "@" not in text.split(":", 1)[0] and "." not in host and not rest.startswith(("/", "~")):
            return ""
        return host
    return text if "." in text else ""


def remote_host(text: str) -> bool:
    """Whether ``text`` names a host other than this one (see :func:`host_of`)."""
    host = host_of(text)
    return bool(host) and not LOCAL.match(host) and not host.startswith(("-", "/", "."))


def touches_secret(words: list[str]) -> bool:
    return any(SENSITIVE.search(f" {w} ") or HOME.match(w) for w in words)
