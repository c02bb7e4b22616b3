"""Realistic secret cases: (text containing the secret, the secret value that must not survive).

The values are fake but shaped like the real thing.
"""

SECRET_CASES: list[tuple[str, str]] = [
    # a setting's name and value as a call's arguments; a password hashed or echoed on a command
    # line; a service account's key id
    ('props.setProperty("password", "Hv7kQ2zLm9Xw");', "Hv7kQ2zLm9Xw"),
    ('config.set("db", "api_token", "Zq8Xw2-Lm7Kv4");', "Zq8Xw2-Lm7Kv4"),
    ('useradd -p "$(openssl passwd -6 -salt x9 Kq7!mZ2pL)" deploy', "Kq7!mZ2pL"),
    ("rsync -av --password-file=<(echo Rs7ncPw9Q) src/ rsync://b@h/m", "Rs7ncPw9Q"),
    ("private_key_id: 7d3f9a1c5e8b2d4f6a0c9e7b3d1f5a8c2e4b6d0a", "7d3f9a1c5e8b2d4f6a0c"),
    # a YAML tag before an environment-style value; a secret printed into a flag's subshell
    ("ENCRYPTION_KEY: !!binary c2VjcmV0LWtleS0xMjM0NTY3ODkw", "c2VjcmV0LWtleS0xMjM0NTY3ODkw"),
    ("openvpn --auth-user-pass <(printf 'bob\\nVp7nQ2kZ8wLm\\n')", "Vp7nQ2kZ8wLm"),
    # a value that only starts like no value or like an object's
    ("password = None1234", "None1234"),
    ("password=hunter2.Xy", "hunter2.Xy"),
    ("password: self.pass_x7!", "self.pass_x7!"),
    # a user and a password given together; a bare "pass" setting; Google's OAuth client secret
    ("Use admin / S3cure!Pass to log in to the dashboard.", "S3cure!Pass"),
    ("credentials: admin:Adm1nP@ss", "Adm1nP@ss"),
    ("[database]\nuser = app\npass = Sup3rS3cret", "Sup3rS3cret"),
    ("smtp_pass: Zz9!zz9!q", "Zz9!zz9!q"),
    # an inventory's or a tool's "<something>_pass" setting
    ("ansible_ssh_pass: gaRgmQ9!u0M4md", "gaRgmQ9!u0M4md"),
    ("ansible_become_pass=Xy7!kq2Lm", "Xy7!kq2Lm"),
    ('vault_pass = "s3cr3tVal"', "s3cr3tVal"),
    ("client 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", "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"),
    # flags named for a secret, key tools, files that hold passwords or their hashes
    ("ssh-keygen -t ed25519 -N 'blue-Falcon-42' -f ~/.ssh/id_deploy", "blue-Falcon-42"),
    ("openssl pkcs12 -export -in c.pem -out c.p12 -passout pass:Tr1ckyPassw0rd", "Tr1ckyPassw0rd"),
    ("keytool -importcert -keystore ks.jks -storepass s3cretStore -file ca.crt", "s3cretStore"),
    ("keytool -genkeypair -keystore ks.jks -keypass k3yPass99 -alias app", "k3yPass99"),
    ("mytool sync --db-password 'two words 99' --verbose", "two words 99"),
    ("db.example.com:5432:app:appuser:N0tSoS3cret", "N0tSoS3cret"),
    ("admin:$apr1$hS2e7k0p$Xr8Qd3b1T2u4V6w8Y0z2A.", "Xr8Qd3b1T2u4V6w8Y0z2A"),
    (
        "deploy:$2b$12$KIXQJ8vB0yZ3m1Qe7x9pUe4Qk3M1b6H2n8R5t7W9y1A3c5E7g9I1K:0",
        "KIXQJ8vB0yZ3m1Qe7x9pUe4Qk3M1b6H2n8R5t7W9y1A3c5E7g9I1K",
    ),
    (  # a SendGrid key one character short of the provider's exact shape: still whole
        "sg = SendGridAPIClient('SG.aB3dE5fG7hI9jK1lM3nO5p.qR7sT9uV1wX3yZ5aB7cD9eF1gH3iJ5kL7mN9oP1qR3')",
        "SG.aB3dE5fG7hI9jK1lM3nO5p",
    ),
    (
        "export OPENAI_API_KEY=sk-proj-Zx8fQ2LmN4pR7tV1wY3aB5cD6eF9gH0iJ2kL4mN6",
        "sk-proj-Zx8fQ2LmN4pR7tV1wY3aB5cD6eF9gH0iJ2kL4mN6",
    ),
    (
        "client = OpenAI(api_key='sk-4f8Kd92LmQpZx7Rt1VwY3aB5cD6eF9gH0iJ2kL4m')",
        "sk-4f8Kd92LmQpZx7Rt1VwY3aB5cD6eF9gH0iJ2kL4m",
    ),
    (
        "ANTHROPIC_API_KEY=sk-ant-api03-h7Gk2Lm9Qp4Zx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN6pQ",
        "sk-ant-api03-h7Gk2Lm9Qp4Zx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN6pQ",
    ),
    (
        "git clone https://ghp_R8kLm2Qp9Zx4Tv7Wy1aB3cD5eF6gH8iJ0kL2m@github.com/acme/repo",
        "ghp_R8kLm2Qp9Zx4Tv7Wy1aB3cD5eF6gH8iJ0kL2m",
    ),
    (
        "GITHUB_TOKEN: ghs_9Lm2Qp4Zx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN",
        "ghs_9Lm2Qp4Zx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN",
    ),
    (
        "token github_pat_11ABCDE2Q0aZx8Rt1VwY3aB5_cD6eF9gH0iJ2kL4mN6pQ8rS0tU2vW4xY6",
        "github_pat_11ABCDE2Q0aZx8Rt1VwY3aB5_cD6eF9gH0iJ2kL4mN6pQ8rS0tU2vW4xY6",
    ),
    ("CI_JOB_TOKEN=glpat-Zx8Rt1VwY3aB5cD6eF9g", "glpat-Zx8Rt1VwY3aB5cD6eF9g"),
    ("aws_access_key_id = AKIAZ7QW3ERT5YUI8OPL", "AKIAZ7QW3ERT5YUI8OPL"),
    (
        "aws_secret_access_key = 'kT9vQ2mX7pL4zR8wN1bY5cH3jF6gD0sA2eU4iO7q'",
        "kT9vQ2mX7pL4zR8wN1bY5cH3jF6gD0sA2eU4iO7q",
    ),
    ("AWS_SESSION_TOKEN=ASIAZ7QW3ERT5YUI8OPL", "ASIAZ7QW3ERT5YUI8OPL"),
    (
        "SLACK_BOT_TOKEN=xoxb-2048193741-5519830245-Qp9Zx4Tv7Wy1aB3cD5eF6gH8",
        "xoxb-2048193741-5519830245-Qp9Zx4Tv7Wy1aB3cD5eF6gH8",
    ),
    (
        "webhook used xoxp-1234567890-0987654321-abcdefABCDEF12",
        "xoxp-1234567890-0987654321-abcdefABCDEF12",
    ),
    ("maps key AIzaSyD4kL9mQ2pZx8Rt1VwY3aB5cD6eF9gH0iJ", "AIzaSyD4kL9mQ2pZx8Rt1VwY3aB5cD6eF9gH0iJ"),
    (
        "stripe.api_key = 'sk_live_51Hx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN'",
        "sk_live_51Hx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN",
    ),
    ("STRIPE_SECRET=rk_test_4eC39HqLyjWDarjtT1zdp7dc", "rk_test_4eC39HqLyjWDarjtT1zdp7dc"),
    (
        "HF_TOKEN=hf_Qp9Zx4Tv7Wy1aB3cD5eF6gH8iJ0kL2mN4pQ6r",
        "hf_Qp9Zx4Tv7Wy1aB3cD5eF6gH8iJ0kL2mN4pQ6r",
    ),
    (
        "//registry.npmjs.org/:_authToken=npm_Zx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN6pQ8rS",
        "npm_Zx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN6pQ8rS",
    ),
    (
        "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    ),
    ("DATABASE_URL=postgres://admin:S3cr3tPassw0rd@db.internal:5432/app", "S3cr3tPassw0rd"),
    ("mysql://root:hunter2hunter2@localhost/test", "hunter2hunter2"),
    ("redis://:r3d1sP4ss@cache:6379/0", "r3d1sP4ss"),
    ("mongodb+srv://svc:M0ng0Pa55w0rd@cluster0.abcde.mongodb.net/db", "M0ng0Pa55w0rd"),
    ("amqp://guest:Rabb1tS3cret@mq:5672/", "Rabb1tS3cret"),
    ("https://deploy:Gh0stDeployPw@git.example.com/repo.git", "Gh0stDeployPw"),
    ("Server=tcp:db;Database=app;User Id=sa;Password=Sql!Serv3rPw;", "Sql!Serv3rPw"),
    ("conn = psycopg2.connect(host='db', user='app', password='pgP4ssw0rd99')", "pgP4ssw0rd99"),
    ("PGPASSWORD=pgs3cret psql -h db -U app", "pgs3cret"),
    ("password: Tr0ub4dor&3xyz", "Tr0ub4dor&3xyz"),
    ('{"username": "bot", "password": "j8Kd92LmQpZx"}', "j8Kd92LmQpZx"),
    ("passwd=letmein123!", "letmein123!"),
    ("DB_PASS=correcthorsebatterystaple", "correcthorsebatterystaple"),
    ("SECRET_KEY = 'django-insecure-9x$k2!m@qp7z#r1v&w3y'", "django-insecure-9x$k2!m@qp7z#r1v&w3y"),
    ("JWT_SECRET=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA", "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA"),
    ("api_key: 7f3c9a1e5b2d8f4a6c0e1b3d5f7a9c2e", "7f3c9a1e5b2d8f4a6c0e1b3d5f7a9c2e"),
    ("X_API_KEY=Qz7Lp2Vx9Kt4Wm8Nr1Bs5Cj3", "Qz7Lp2Vx9Kt4Wm8Nr1Bs5Cj3"),
    (
        "curl -H 'x-api-key: 0a9f8e7d6c5b4a3928171615141312' https://api.example.com",
        "0a9f8e7d6c5b4a3928171615141312",
    ),
    (
        "access_token=ya29.a0AfH6SMBx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN",
        "ya29.a0AfH6SMBx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN",
    ),
    ('auth_token = "c2VjcmV0LXRva2VuLXZhbHVlLTEyMzQ1Ng"', "c2VjcmV0LXRva2VuLXZhbHVlLTEyMzQ1Ng"),
    (
        "SENDGRID_API_KEY=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",
        "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",
    ),
    ("TWILIO_AUTH_TOKEN=9f8e7d6c5b4a39281716151413121110", "9f8e7d6c5b4a39281716151413121110"),
    ("MAILGUN_KEY=key-3ax6xnjp29jd6fds4gc373sgvjxteol0", "key-3ax6xnjp29jd6fds4gc373sgvjxteol0"),
    (
        "DOCKER_PASSWORD=dckr_pat_Zx8Rt1VwY3aB5cD6eF9gH0iJ2kL",
        "dckr_pat_Zx8Rt1VwY3aB5cD6eF9gH0iJ2kL",
    ),
    (
        "env dump:\nHOME=/root\nAZURE_CLIENT_SECRET=Az~8Q~Zx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN\nPATH=/usr/bin",
        "Az~8Q~Zx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN",
    ),
    (
        "$ env | grep TOKEN\nVAULT_TOKEN=hvs.CAESIZx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN6p",
        "hvs.CAESIZx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN6p",
    ),
    ("NPM_TOKEN=00000000-1111-2222-3333-444455556666", "00000000-1111-2222-3333-444455556666"),
    (
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA3Zx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN6pQ8rS0tU2vW4xY6z\nA8bC0dE2fG4hI6jK8lM0nO2pQ4rS6tU8vW0xY2zA4bC6dE8fG0hI2jK4lM6nO8p\n-----END RSA PRIVATE KEY-----",
        "MIIEpAIBAAKCAQEA3Zx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN6pQ8rS0tU2vW4xY6z",
    ),
    (
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----",
        "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
    ),
    (
        "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBZx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN6pQ8rS0tU2vWoAoGCCqGSM49\n-----END EC PRIVATE KEY-----",
        "MHcCAQEEIBZx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN6pQ8rS0tU2vWoAoGCCqGSM49",
    ),
    (
        "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7Zx8Rt1VwY3aB\n(truncated output",
        "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7Zx8Rt1VwY3aB",
    ),
    (
        "Observation: config.yaml\n  openai:\n    key: sk-Zx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN6pQ8rS0",
        "sk-Zx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN6pQ8rS0",
    ),
    ("kubectl create secret generic db --from-literal=password=K8sS3cretPw", "K8sS3cretPw"),
    ("docker run -e POSTGRES_PASSWORD=D0ckerPgPw postgres", "D0ckerPgPw"),
    (
        "requests.get(url, auth=('user', 'x'), headers={'Authorization': 'token ghp_Zx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN6pQ8rS'})",
        "ghp_Zx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN6pQ8rS",
    ),
    (
        'GOOGLE_APPLICATION_CREDENTIALS_JSON={"private_key_id": "4b1d9f2e8c7a6b5d4e3f2a1b0c9d8e7f6a5b4c3d"}',
        "4b1d9f2e8c7a6b5d4e3f2a1b0c9d8e7f6a5b4c3d",
    ),
    # .netrc, kubeconfig, docker config, and provider formats without a keyword in front
    ("machine api.github.com\n  login bob\n  password gh0stPa55word\n", "gh0stPa55word"),
    (
        "users:\n- name: admin\n  user:\n    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFcEFJQkFBS0NBUUVB",
        "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQpNSUlFcEFJQkFBS0NBUUVB",
    ),
    (
        '{"auths": {"https://index.docker.io/v1/": {"auth": "Ym9iOnMzY3JldFB3MTIz"}}}',
        "Ym9iOnMzY3JldFB3MTIz",
    ),
    ("mailgun.send(key-3ax6xnjp29jd6fds4gc373sgvjxteol0)", "key-3ax6xnjp29jd6fds4gc373sgvjxteol0"),
    (
        "AGE-SECRET-KEY-1QYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGP",
        "AGE-SECRET-KEY-1QYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGPQYQSZQGP",
    ),
    (
        "client.auth(lin_api_Zx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN6pQ8rS0tU2)",
        "lin_api_Zx8Rt1VwY3aB5cD6eF9gH0iJ2kL4mN6pQ8rS0tU2",
    ),
    # settings named around the secret word, subscripts, elements, SQL, prose and command lines
    ("config.secret_key_base = 'a1b2c3d4e5f6a7b8c9d0'", "a1b2c3d4e5f6a7b8c9d0"),
    ("app.config['SECRET_KEY'] = 'dev-abc-123x'", "dev-abc-123x"),
    ("creds = {'db_password': 'pw-9x8y7z', 'user': 'bob'}", "pw-9x8y7z"),
    ("<settings><password>XmlPw1234</password></settings>", "XmlPw1234"),
    ("ALTER USER app WITH PASSWORD 'Pg-Pw-2024';", "Pg-Pw-2024"),
    ("CREATE USER bob IDENTIFIED BY 'Or4clePw';", "Or4clePw"),
    ("SET PASSWORD FOR 'root'@'localhost' = 'R00tPw!!';", "R00tPw!!"),
    ("the password is Tr0ub4dor&3 for the box", "Tr0ub4dor&3"),
    ("ssh-add: id_ed25519 passphrase 'Ed-Pass-77'", "Ed-Pass-77"),
    ("passphrase: correcthorsebatterystaple", "correcthorsebatterystaple"),
    ("passphrase: correct horse battery staple", "horse battery staple"),
    ("backup_passphrase = purple monkey dishwasher lamp\n", "monkey dishwasher lamp"),
    ("htpasswd -bc /etc/nginx/.htpasswd admin Adm1nPw", "Adm1nPw"),
    ("echo 'S3cretPw' | sudo -S apt-get install -y tree", "S3cretPw"),
    ("echo hunter22 | docker login -u bob --password-stdin", "hunter22"),
    ("openssl enc -aes256 -k MyEncPass99 -in notes.txt", "MyEncPass99"),
    ("--token ghp_short1234 --verbose", "ghp_short1234"),
    (
        "seed phrase: abandon ability able about above absent absorb abstract absurd abuse access accident",
        "abandon ability able about above absent absorb abstract absurd abuse access accident",
    ),
    # a second round, each written before the rules that catch it (25 of 30 were caught)
    (
        "export GH_TOKEN=ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
        "ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
    ),
    (
        "const stripe = require('stripe')('sk_test_51Hq7ZpL2mN4bV6cX8zA0sD');",
        "sk_test_51Hq7ZpL2mN4bV6cX8zA0sD",
    ),
    ("az login --service-principal -u 1111 -p 'Az.Pw~12345-abcde' --tenant t", "Az.Pw~12345-abcde"),
    ("docker login -u bob -p Dckr9Pw registry.example.com", "Dckr9Pw"),
    (
        "git config --global credential.helper store && echo 'https://bob:Gh0stPw9@github.com' > ~/.git-credentials",
        "Gh0stPw9",
    ),
    (
        "pip install --index-url https://__token__:pypi-AgEIcHlwaS5vcmc2@pypi.example/simple pkg",
        "pypi-AgEIcHlwaS5vcmc2",
    ),
    (
        "[default]\naws_access_key_id = AKIAQ3EGUJ6YKVHXWZMN\naws_secret_access_key = 9dR3+qW8vN2mL5kJ7hG4fD1sA0zX6cV9bN3mQ8wE",
        "9dR3+qW8vN2mL5kJ7hG4fD1sA0zX6cV9bN3mQ8wE",
    ),
    ("client_secret=GOCSPX-1a2b3c4d5e6f7g8h9i0jKLMNop", "GOCSPX-1a2b3c4d5e6f7g8h9i0jKLMNop"),
    ("DATABASE_URL=mysql+pymysql://app:My%40Pass%21@db/app", "My%40Pass%21"),
    ("ssh -i key.pem ubuntu@host  # key passphrase: Ubuntu-Key-77", "Ubuntu-Key-77"),
    (
        "heroku auth:token\n8c4f1a2b-9d3e-4f5a-b6c7-d8e9f0a1b2c3",
        "8c4f1a2b-9d3e-4f5a-b6c7-d8e9f0a1b2c3",
    ),
    (
        'const firebaseConfig = { apiKey: "AIzaSyB1c2D3e4F5g6H7i8J9k0L1m2N3o4P5q6R" };',
        "AIzaSyB1c2D3e4F5g6H7i8J9k0L1m2N3o4P5q6R",
    ),
    (
        "discord bot token: MTA5ODc2NTQzMjEwOTg3NjU0.GhIjKl.MnOpQrStUvWxYz0123456789AbCdEfGhIjKl",
        "MTA5ODc2NTQzMjEwOTg3NjU0.GhIjKl.MnOpQrStUvWxYz0123456789AbCdEfGhIjKl",
    ),
    (
        "TELEGRAM_BOT=123456789:AAHk9Lm2Np4Qr6St8Uv0Wx2Yz4Ab6Cd8Ef0",
        "123456789:AAHk9Lm2Np4Qr6St8Uv0Wx2Yz4Ab6Cd8Ef0",
    ),
    (
        "PRIVATE_KEY=0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
        "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
    ),
    (
        'curl -H "PRIVATE-TOKEN: glpat-abcDEF123ghiJKL456mn" https://gitlab.example/api/v4/projects',
        "glpat-abcDEF123ghiJKL456mn",
    ),
    ("requests.post(url, data={'username': 'bob', 'password': 'Pw-in-dict-9'})", "Pw-in-dict-9"),
    (
        '<connectionStrings><add connectionString="Server=db;User ID=sa;Password=XmlConn9!;"/></connectionStrings>',
        "XmlConn9!",
    ),
    ("vault kv put secret/app db_password=Vault-Pw-88", "Vault-Pw-88"),
    ("kubectl create secret docker-registry reg --docker-password=K8sReg-Pw1", "K8sReg-Pw1"),
    ("$ mysql -uroot -pR00tPass123 -e 'show databases'", "R00tPass123"),
    (
        'RUN echo "machine github.com login x password ghp_abcdefghijklmnopqrstuvwxyz0123456789" > ~/.netrc',
        "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    ),
    ("smtp.login('me@example.com', 'Smtp-App-Pw-7')", "Smtp-App-Pw-7"),
    ("psycopg2.connect('dbname=app user=app password=ConnStr-Pw5 host=db')", "ConnStr-Pw5"),
    (
        'export OPENAI_API_KEY="sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd"',
        "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd",
    ),
    ("auth = HTTPBasicAuth('admin', 'BasicAuth-Pw3')", "BasicAuth-Pw3"),
    ("ftp.login(user='anon', passwd='Ftp-Pw-42')", "Ftp-Pw-42"),
    ("jdbc:postgresql://db:5432/app?user=app&password=Jdbc-Pw-6", "Jdbc-Pw-6"),
    ("The API key is 7f9c2ba4e88f827d616045507605853e", "7f9c2ba4e88f827d616045507605853e"),
    (
        "wallet private key 5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ",
        "5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ",
    ),
    # names of any length around the secret word, and schemes and keys wherever they sit
    (
        "{'my_application_production_replica_database_password': 'Long-Name-Pw9'}",
        "Long-Name-Pw9",
    ),
    (
        "<primaryReplicaDatabasePassword>Xml-Long-Pw7</primaryReplicaDatabasePassword>",
        "Xml-Long-Pw7",
    ),
    ('{"service.account.client_secret": "Json-Dotted-5ecret"}', "Json-Dotted-5ecret"),
    ("ACME_PAYMENTS_GATEWAY_PRIMARY_API_KEY=Env-Long-K3y", "Env-Long-K3y"),
    ("release.v1.2.https://deploy:Dotted-Scheme-Pw@example.com/x", "Dotted-Scheme-Pw"),
    ("Épassword=Unicode-Before-Pw1", "Unicode-Before-Pw1"),
    (
        "//registry.npmjs.org/:_authToken=9f3b2c1a-1234-4cde-8f00-abcdefabcdef",
        "9f3b2c1a-1234-4cde-8f00-abcdefabcdef",
    ),
    ("gitlab-runner register --token glrt-Runn3rTokenBody_0123", "Runn3rTokenBody_0123"),
    (
        "DOPPLER_TOKEN dp.st.dev.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
        "AbCdEfGhIjKlMnOpQrStUvWxYz01",
    ),
    ("lftp -u deploy,FtpP4ss99 ftp.example.com", "FtpP4ss99"),
    ("smbclient //srv/share -U admin%Smb5ecret! -c ls", "Smb5ecret!"),
    ('const TOKEN: &str = "rustT0kenValue99";', "rustT0kenValue99"),
    ('secret := "goS3cretValue42"', "goS3cretValue42"),
    ("zip -P ZipP4ssw0rd secret.zip file", "ZipP4ssw0rd"),
    ("7z a -pSevenZipPw1 out.7z dir", "SevenZipPw1"),
    ("ldapsearch -x -D cn=admin -w LdapP4ss99 -b dc=x", "LdapP4ss99"),
    # prose that says what the secret is for, or joins it with "and"/"with"
    ("the root password for the box is Winter2024!", "Winter2024!"),
    ("login with user admin and password admin123", "admin123"),
    ("set the passphrase to 'purple monkey dishwasher'", "purple monkey dishwasher"),
    ("The wifi key is SunnyDay2024 for network OfficeNet", "SunnyDay2024"),
    # "password" in other languages
    ("Passwort: Geheim!2024xyz", "Geheim!2024xyz"),
    ("contraseña: MiClave#55", "MiClave#55"),
    ("mot de passe : Soleil2024", "Soleil2024"),
    ("senha=Brasil@123", "Brasil@123"),
    ("hasło: Zamek#2024", "Zamek#2024"),
    ("пароль: Qwerty!2024", "Qwerty!2024"),
    ("密码\uff1aAbc123456!", "Abc123456!"),  # the full-width colon
    ("パスワード: Sakura2024", "Sakura2024"),
    ("비밀번호: Seoul#2024", "Seoul#2024"),
    # a YAML tag before the value; a PuTTY key file's private lines
    ("db:\n  password: !!str Hunter#2024\n", "Hunter#2024"),
    (
        "PuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nPublic-Lines: 1\nAAAAB3NzaC1yc2E\n"
        "Private-Lines: 2\nAAAAgQDabcdefGHIJKL1234\nQ2FmZUJhYmVEZWFkQmVlZg==\nPrivate-MAC: 0a1b\n",
        "Q2FmZUJhYmVEZWFkQmVlZg==",
    ),
]
