"""The HTTP API's flows with Python's requests, against a running chime serve:
python3 flows.py BASE_URL READ_SECRET WRITE_SECRET. Prints "ok N" after N checks, or
fails with the check that did not hold."""
import sys

import requests

base, read_secret, write_secret = sys.argv[1:4]
read = {"Authorization": "Bearer " + read_secret}
write = {"Authorization": "Bearer " + write_secret}
checks = 0


def check(condition, what):
    global checks
    if not condition:
        sys.exit("failed: " + what)
    checks += 1


def request(identifier, seconds, recipient="alice"):
    return {"identifier": identifier, "recipient": recipient, "content": {"title": "Reminder " + identifier},
            "trigger": {"type": "timeInterval", "seconds": seconds}}


# Auth: none, unknown, too small a scope.
check(requests.get(base + "/v1/pending").status_code == 401, "no key: 401")
check(requests.get(base + "/v1/pending", headers={"Authorization": "Bearer nope-nope-nope-nope"}).status_code == 401, "unknown key: 401")
refused = requests.post(base + "/v1/requests", json=request("x", 60), headers=read)
check(refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden", "read key POSTing: 403")
check(requests.get(base + "/v1/openapi.json").json()["openapi"].startswith("3.1"), "the document, without a key")

# Schedule: one, then an array; all or none.
one = requests.post(base + "/v1/requests", json=request("flow-1", 600), headers=write)
check(one.status_code == 201, "one scheduled: 201")
check([s["identifier"] for s in one.json()["scheduled"]] == ["flow-1"], "its identifier")
many = requests.post(base + "/v1/requests", json=[request("flow-%d" % n, 600 * n) for n in range(2, 6)], headers=write)
check(many.status_code == 201 and len(many.json()["scheduled"]) == 4, "an array scheduled")
none = requests.post(base + "/v1/requests", json=[request("flow-6", 60), request("flow-7", 60, recipient="nobody")], headers=write)
check(none.status_code == 422, "an unknown recipient: 422")
check(requests.get(base + "/v1/requests/flow-6", headers=read).status_code == 404, "all or none")
bad = requests.post(base + "/v1/requests", data='{"identifier": "b", "recipient": "alice", "content": {"title": 1}, "trigger": {"type": "timeInterval", "seconds": 60}}',
                    headers={**write, "Content-Type": "application/json"})
check(bad.status_code == 400 and bad.json()["error"]["at"] == "content.title", "a wrong type: 400 at content.title")

# Get one.
got = requests.get(base + "/v1/requests/flow-1", headers=read)
check(got.status_code == 200 and got.json()["content"]["title"] == "Reminder flow-1", "get one")

# List with pagination.
seen, url, pages = [], base + "/v1/pending?limit=2", 0
while url and pages < 10:
    page = requests.get(url, headers=read).json()
    seen += [item["identifier"] for item in page["items"]]
    url = base + "/v1/pending?limit=2&cursor=" + page["next"] if page["next"] else None
    pages += 1
check(seen == ["flow-%d" % n for n in range(1, 6)] and pages == 3, "five over three pages, in fire order")

# Idempotency: replayed, not scheduled again.
key = {**write, "Idempotency-Key": "flow-order-1"}
first = requests.post(base + "/v1/requests", json=request("flow-8", 900), headers=key)
again = requests.post(base + "/v1/requests", json=request("flow-8", 900), headers=key)
check(first.status_code == 201 and again.status_code == 201 and again.content == first.content, "replayed")
check(again.headers.get("Idempotent-Replayed") == "true", "marked as replayed")
check(requests.post(base + "/v1/requests", json=request("flow-9", 900), headers=key).status_code == 409, "another body: 409")

# Eight calls with one Idempotency-Key at once, as a client retrying after a timeout
# sends them: one schedules, the seven others replay its answer.
import threading
raced = []
def race():
    raced.append(requests.post(base + "/v1/requests", json=request("flow-race", 900), headers={**write, "Idempotency-Key": "flow-race-1"}))
threads = [threading.Thread(target=race) for _ in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
check(all(r.status_code == 201 for r in raced), "eight answers 201: %s" % [r.status_code for r in raced])
check(len([r for r in raced if r.headers.get("Idempotent-Replayed") != "true"]) == 1, "one scheduled, seven replayed")
check(len(set(r.content for r in raced)) == 1, "the same answer to all")

# Paging goes by the identifiers' bytes, as the store sorts them: "é" written two ways
# (precomposed, and e with a combining accent) are two items, each on some page.
spellings = ["page-e", "page-e\u0301", "page-f", "page-\u00e9"]
dated = [{"identifier": i, "recipient": "alice", "content": {"title": "T"},
          "trigger": {"type": "date", "fireDate": "2035-01-01T00:00:00", "timeZone": "UTC"}} for i in spellings]
posted = requests.post(base + "/v1/requests", json=dated, headers=write)
check(posted.status_code == 201, "four identifiers, one instant: %s" % posted.text)
paged, url = [], base + "/v1/pending?limit=1"
while url:
    page = requests.get(url, headers=read).json()
    paged += [item["identifier"] for item in page["items"]]
    url = base + "/v1/pending?limit=1&cursor=" + page["next"] if page["next"] else None
check(all(i in paged for i in spellings) and len(paged) == len(set(paged)), "every item once: %r" % paged)

# HEAD: the GET's headers, its Content-Length among them, without the body.
document = requests.get(base + "/v1/openapi.json")
head = requests.head(base + "/v1/openapi.json")
check(head.status_code == 200 and head.content == b"" and head.headers.get("Content-Length") == str(len(document.content)),
      "HEAD's Content-Length is the GET's: %s" % head.headers.get("Content-Length"))

# Each shape of trigger reads back as the document says: a floating time (its timeZone
# null, as the contract has it) and a date that repeats.
import jsonschema


def conforms(body, name):
    try:
        jsonschema.validate(body, {"$ref": "#/components/schemas/" + name, "components": document.json()["components"]})
        return True
    except jsonschema.ValidationError as error:
        print(name + ": " + error.message, file=sys.stderr)
        return False


shapes = [{"identifier": "shape-floating", "recipient": "alice", "content": {"title": "T"},
           "trigger": {"type": "calendar", "dateComponents": {"hour": 9}, "timeZone": None, "repeats": True}},
          {"identifier": "shape-weekly", "recipient": "alice", "content": {"title": "T"},
           "trigger": {"type": "date", "fireDate": "2035-01-01T09:00", "timeZone": None, "repeatInterval": "week"}}]
posted = requests.post(base + "/v1/requests", json=shapes, headers=write)
check(posted.status_code == 201 and conforms(posted.json(), "Scheduled"), "floating and repeating dates scheduled: %s" % posted.text)
check(all(conforms(requests.get(base + "/v1/requests/" + shape["identifier"], headers=read).json(), "Pending") for shape in shapes),
      "each read back as the document's Pending")

# Delete.
check(requests.delete(base + "/v1/requests/flow-1", headers=read).status_code == 403, "read key deleting: 403")
check(requests.delete(base + "/v1/requests/flow-1", headers=write).status_code == 204, "deleted: 204")
check(requests.delete(base + "/v1/requests/flow-1", headers=write).status_code == 404, "deleted twice: 404")
check(requests.get(base + "/v1/requests/flow-1", headers=read).status_code == 404, "gone")
print("ok", checks)
