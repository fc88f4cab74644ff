"""Google's Python client (Debian's python3-googleapi) against the emulator, built from the emulator's own
discovery documents: for each of the five services, a read and a write per resource, a listing paged to its end,
one batch, and Drive content uploaded and downloaded. Run by run.py, which starts the emulator."""

import io
import json
import os
import unittest
import urllib.request

import httplib2
from googleapiclient.discovery import build
from googleapiclient.errors import HttpError
from googleapiclient.http import MediaInMemoryUpload, MediaIoBaseDownload

EMULATOR = os.environ.get('DESK_EMULATOR_URL', 'http://127.0.0.1:8089')
DISCOVERY = EMULATOR + '/discovery/v1/apis/{api}/{apiVersion}/rest'


def token_for(user):
    """A bearer token from the emulator's dev-token route (what a service account gives a script)."""
    request = urllib.request.Request(EMULATOR + '/emulator/v1/token?user=' + user, method='POST')
    with urllib.request.urlopen(request) as response:
        return json.load(response)['access_token']


class BearerHttp(httplib2.Http):
    """httplib2 with a bearer token on every request: no auth library needed."""

    def __init__(self, token):
        super().__init__()
        self.token = token
        # As googleapiclient's own build_http(): 308 is resumable upload's "resume incomplete", not a redirect.
        self.redirect_codes = self.redirect_codes - {308}

    def request(self, uri, method='GET', body=None, headers=None, **kwargs):
        headers = dict(headers or {})
        headers['authorization'] = 'Bearer ' + self.token
        return super().request(uri, method=method, body=body, headers=headers, **kwargs)


def service(api, version, user='alice@example.com'):
    return build(api, version, http=BearerHttp(token_for(user)), discoveryServiceUrl=DISCOVERY, cache_discovery=False)


def page_to_end(collection, **params):
    """Every item of a listing, following nextPageToken with the client's own list_next."""
    items, pages = [], 0
    request = collection.list(**params)
    while request is not None:
        answer = request.execute()
        items.extend(answer.get('items', []))
        pages += 1
        request = collection.list_next(request, answer)
    return items, pages


def run_batch(api, calls):
    """Runs the calls as one batch request; returns each call's (response, exception) in order."""
    answers = {}

    def collect(request_id, response, exception):
        answers[request_id] = (response, exception)

    batch = api.new_batch_http_request(callback=collect)
    for index, call in enumerate(calls):
        batch.add(call, request_id=str(index))
    batch.execute()
    return [answers[str(index)] for index in range(len(calls))]


class Discovery(unittest.TestCase):
    def test_builds_each_service_from_the_emulators_directory(self):
        with urllib.request.urlopen(EMULATOR + '/discovery/v1/apis') as response:
            directory = json.load(response)
        self.assertEqual(directory['kind'], 'discovery#directoryList')
        names = sorted(item['id'] for item in directory['items'])
        self.assertEqual(names, ['admin:directory_v1', 'books:v1', 'calendar:v3', 'drive:v2', 'tasks:v1'])
        for item in directory['items']:
            built = service(item['name'], item['version'])
            self.assertTrue(built._baseUrl.startswith(EMULATOR + '/'), built._baseUrl)

    def test_a_method_the_emulator_lacks_is_missing_at_build_time(self):
        books = service('books', 'v1')
        self.assertFalse(hasattr(books, 'cloudloading'), 'Books cloudloading is not served, so not built')


class Tasks(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.api = service('tasks', 'v1')

    def test_tasklists_read_and_write(self):
        created = self.api.tasklists().insert(body={'title': 'From Python'}).execute()
        self.assertEqual(created['kind'], 'tasks#taskList')
        listed, _ = page_to_end(self.api.tasklists(), maxResults=1)
        self.assertIn(created['id'], [item['id'] for item in listed])
        patched = self.api.tasklists().patch(tasklist=created['id'], body={'title': 'Renamed'}).execute()
        self.assertEqual(patched['title'], 'Renamed')

    def test_tasks_read_write_and_paging(self):
        tasklist = self.api.tasklists().insert(body={'title': 'Paged'}).execute()['id']
        for index in range(5):
            self.api.tasks().insert(tasklist=tasklist, body={'title': 'task %d' % index}).execute()
        items, pages = page_to_end(self.api.tasks(), tasklist=tasklist, maxResults=2)
        self.assertEqual(sorted(item['title'] for item in items), ['task %d' % index for index in range(5)])
        self.assertEqual(pages, 3)
        first = items[0]
        moved = self.api.tasks().move(tasklist=tasklist, task=first['id']).execute()
        self.assertEqual(moved['id'], first['id'])
        self.assertEqual(self.api.tasks().get(tasklist=tasklist, task=first['id']).execute()['title'], first['title'])

    def test_batch(self):
        tasklist = self.api.tasklists().insert(body={'title': 'Batched'}).execute()['id']
        answers = run_batch(self.api, [self.api.tasks().insert(tasklist=tasklist, body={'title': 'b%d' % index}) for index in range(3)])
        self.assertEqual([exception for _, exception in answers], [None, None, None])
        self.assertEqual(sorted(response['title'] for response, _ in answers), ['b0', 'b1', 'b2'])
        self.assertEqual(len(page_to_end(self.api.tasks(), tasklist=tasklist)[0]), 3)


class Books(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.api = service('books', 'v1')

    def test_volumes_read_and_paging_by_start_index(self):
        first = self.api.volumes().list(q='the', maxResults=5).execute()
        self.assertGreater(first['totalItems'], 0)
        volume = self.api.volumes().get(volumeId=first['items'][0]['id']).execute()
        self.assertEqual(volume['id'], first['items'][0]['id'])

    def test_mylibrary_shelves_read_write_and_paging(self):
        found = self.api.volumes().list(q='the', maxResults=5).execute()['items']
        shelves = self.api.mylibrary().bookshelves().list().execute()['items']
        favorites = next(shelf for shelf in shelves if shelf['id'] == 0)
        self.api.mylibrary().bookshelves().clearVolumes(shelf='0').execute()
        for volume in found:
            self.api.mylibrary().bookshelves().addVolume(shelf='0', volumeId=volume['id']).execute()
        seen, start = [], 0
        while True:
            page = self.api.mylibrary().bookshelves().volumes().list(shelf='0', startIndex=start, maxResults=2).execute()
            seen.extend(item['id'] for item in page.get('items', []))
            if len(page.get('items', [])) < 2:
                break
            start += 2
        self.assertEqual(sorted(seen), sorted(volume['id'] for volume in found))
        self.assertEqual(self.api.mylibrary().bookshelves().get(shelf='0').execute()['id'], favorites['id'])

    def test_another_users_public_bookshelves_read(self):
        with urllib.request.urlopen(EMULATOR + '/emulator/v1/users') as response:
            alice = next(user for user in json.load(response)['users'] if user['email'] == 'alice@example.com')
        bob = service('books', 'v1', 'bob@example.com')
        shelves = bob.bookshelves().list(userId=alice['id']).execute()['items']
        self.assertTrue(all(shelf['access'] == 'PUBLIC' for shelf in shelves))
        volumes = bob.bookshelves().volumes().list(userId=alice['id'], shelf=str(shelves[0]['id'])).execute()
        self.assertEqual(volumes['kind'], 'books#volumes')

    def test_batch(self):
        found = self.api.volumes().list(q='the', maxResults=3).execute()['items']
        answers = run_batch(self.api, [self.api.volumes().get(volumeId=volume['id']) for volume in found])
        self.assertEqual([response['id'] for response, _ in answers], [volume['id'] for volume in found])


class Drive(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.api = service('drive', 'v2')

    def test_upload_and_download_content(self):
        text = 'Hello from Python \u2713\n' * 50
        simple = self.api.files().insert(body={'title': 'python.txt', 'mimeType': 'text/plain'},
                                         media_body=MediaInMemoryUpload(text.encode('utf-8'), mimetype='text/plain')).execute()
        self.assertEqual(int(simple['fileSize']), len(text.encode('utf-8')))
        self.assertEqual(self.api.files().get_media(fileId=simple['id']).execute().decode('utf-8'), text)
        resumable = self.api.files().update(fileId=simple['id'], body={'title': 'python.txt'},
                                            media_body=MediaInMemoryUpload(b'x' * 300000, mimetype='text/plain', chunksize=256 * 1024, resumable=True)).execute()
        self.assertEqual(int(resumable['fileSize']), 300000)
        buffer = io.BytesIO()
        download = MediaIoBaseDownload(buffer, self.api.files().get_media(fileId=simple['id']), chunksize=100000)
        done = False
        while not done:
            _, done = download.next_chunk()
        self.assertEqual(buffer.getvalue(), b'x' * 300000)

    def test_files_children_parents_paging(self):
        folder = self.api.files().insert(body={'title': 'py-folder', 'mimeType': 'application/vnd.google-apps.folder'}).execute()
        for index in range(5):
            self.api.files().insert(body={'title': 'f%d' % index, 'parents': [{'id': folder['id']}]}).execute()
        items, pages = page_to_end(self.api.files(), q="'%s' in parents" % folder['id'], maxResults=2)
        self.assertEqual(sorted(item['title'] for item in items), ['f%d' % index for index in range(5)])
        self.assertEqual(pages, 3)
        children, _ = page_to_end(self.api.children(), folderId=folder['id'], maxResults=2)
        self.assertEqual(len(children), 5)
        loose = self.api.files().insert(body={'title': 'loose'}).execute()
        self.api.children().insert(folderId=folder['id'], body={'id': loose['id']}).execute()
        parents = self.api.parents().list(fileId=loose['id']).execute()['items']
        self.assertIn(folder['id'], [parent['id'] for parent in parents])
        other = self.api.files().insert(body={'title': 'other-folder', 'mimeType': 'application/vnd.google-apps.folder'}).execute()
        self.api.parents().insert(fileId=loose['id'], body={'id': other['id']}).execute()
        self.assertEqual(self.api.files().patch(fileId=loose['id'], body={'title': 'renamed'}).execute()['title'], 'renamed')

    def test_collaboration_resources(self):
        made = self.api.files().insert(body={'title': 'shared.txt', 'mimeType': 'text/plain'},
                                       media_body=MediaInMemoryUpload(b'one', mimetype='text/plain')).execute()
        self.api.permissions().insert(fileId=made['id'], body={'role': 'reader', 'type': 'user', 'value': 'bob@example.com'}, sendNotificationEmails=False).execute()
        self.assertIn('bob@example.com', [permission.get('emailAddress') for permission in self.api.permissions().list(fileId=made['id']).execute()['items']])
        comment = self.api.comments().insert(fileId=made['id'], body={'content': 'From Python'}).execute()
        self.api.replies().insert(fileId=made['id'], commentId=comment['commentId'], body={'content': 'Reply'}).execute()
        self.assertEqual(len(self.api.replies().list(fileId=made['id'], commentId=comment['commentId']).execute()['items']), 1)
        self.assertEqual(self.api.comments().list(fileId=made['id']).execute()['items'][0]['content'], 'From Python')
        self.api.properties().insert(fileId=made['id'], body={'key': 'origin', 'value': 'python', 'visibility': 'PUBLIC'}).execute()
        self.assertEqual(self.api.properties().get(fileId=made['id'], propertyKey='origin', visibility='PUBLIC').execute()['value'], 'python')
        revisions = self.api.revisions().list(fileId=made['id']).execute()['items']
        pinned = self.api.revisions().patch(fileId=made['id'], revisionId=revisions[-1]['id'], body={'pinned': True}).execute()
        self.assertTrue(pinned['pinned'])

    def test_about_apps_changes_and_channels(self):
        about = self.api.about().get().execute()
        self.assertEqual(about['user']['emailAddress'], 'alice@example.com')
        self.assertEqual(self.api.apps().get(appId='desk-notes').execute()['id'], 'desk-notes')
        start = self.api.changes().getStartPageToken().execute()['startPageToken']
        self.api.files().insert(body={'title': 'changed'}).execute()
        changes, _ = page_to_end(self.api.changes(), startChangeId=start, maxResults=1)
        self.assertIn('changed', [change.get('file', {}).get('title') for change in changes])
        with self.assertRaises(HttpError) as stopped:
            self.api.channels().stop(body={'id': 'no-such-channel', 'resourceId': 'none'}).execute()
        self.assertEqual(stopped.exception.resp.status, 404)

    def test_shared_drives(self):
        made = self.api.drives().insert(requestId='python-drive-1', body={'name': 'Python drive'}).execute()
        self.assertIn(made['id'], [drive['id'] for drive in self.api.drives().list().execute()['items']])
        teamdrive = self.api.teamdrives().insert(requestId='python-team-1', body={'name': 'Python team drive'}).execute()
        self.assertIn(teamdrive['id'], [drive['id'] for drive in self.api.teamdrives().list().execute()['items']])

    def test_batch(self):
        answers = run_batch(self.api, [self.api.files().insert(body={'title': 'batched %d' % index}) for index in range(3)])
        self.assertEqual([exception for _, exception in answers], [None, None, None])
        for response, _ in answers:
            self.assertEqual(self.api.files().get(fileId=response['id']).execute()['title'], response['title'])


class Calendar(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.api = service('calendar', 'v3')

    def test_calendars_and_calendar_list(self):
        made = self.api.calendars().insert(body={'summary': 'Python calendar', 'timeZone': 'Europe/Paris'}).execute()
        self.assertEqual(self.api.calendars().get(calendarId=made['id']).execute()['summary'], 'Python calendar')
        entries, _ = page_to_end(self.api.calendarList(), maxResults=1)
        self.assertIn(made['id'], [entry['id'] for entry in entries])
        patched = self.api.calendarList().patch(calendarId=made['id'], body={'colorId': '3'}).execute()
        self.assertEqual(patched['colorId'], '3')
        self.assertIn('calendar', self.api.colors().get().execute())

    def test_events_read_write_and_paging(self):
        calendar = self.api.calendars().insert(body={'summary': 'Paged events'}).execute()['id']
        for day in range(1, 6):
            self.api.events().insert(calendarId=calendar, body={
                'summary': 'event %d' % day,
                'start': {'dateTime': '2030-01-%02dT10:00:00Z' % day},
                'end': {'dateTime': '2030-01-%02dT11:00:00Z' % day},
            }).execute()
        quick = self.api.events().quickAdd(calendarId=calendar, text='Lunch tomorrow at noon').execute()
        self.assertEqual(quick['status'], 'confirmed')
        items, pages = page_to_end(self.api.events(), calendarId=calendar, maxResults=2)
        self.assertEqual(len(items), 6)
        self.assertGreaterEqual(pages, 3)
        self.assertEqual(self.api.events().get(calendarId=calendar, eventId=quick['id']).execute()['id'], quick['id'])

    def test_acl_settings_freebusy_channels(self):
        calendar = self.api.calendars().insert(body={'summary': 'Shared from Python'}).execute()['id']
        rule = self.api.acl().insert(calendarId=calendar, body={'role': 'reader', 'scope': {'type': 'user', 'value': 'bob@example.com'}}).execute()
        self.assertIn(rule['id'], [item['id'] for item in self.api.acl().list(calendarId=calendar).execute()['items']])
        self.assertTrue(self.api.settings().list().execute()['items'])
        busy = self.api.freebusy().query(body={'timeMin': '2030-01-01T00:00:00Z', 'timeMax': '2030-01-08T00:00:00Z', 'items': [{'id': calendar}]}).execute()
        self.assertIn(calendar, busy['calendars'])
        with self.assertRaises(HttpError) as stopped:
            self.api.channels().stop(body={'id': 'no-such-channel', 'resourceId': 'none'}).execute()
        self.assertEqual(stopped.exception.resp.status, 404)

    def test_batch(self):
        calendar = self.api.calendars().insert(body={'summary': 'Batched events'}).execute()['id']
        calls = [self.api.events().insert(calendarId=calendar, body={
            'summary': 'batched %d' % index,
            'start': {'date': '2030-02-%02d' % (index + 1)},
            'end': {'date': '2030-02-%02d' % (index + 2)},
        }) for index in range(3)]
        answers = run_batch(self.api, calls)
        self.assertEqual([exception for _, exception in answers], [None, None, None])
        self.assertEqual(len(page_to_end(self.api.events(), calendarId=calendar)[0]), 3)


class Directory(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.api = service('admin', 'directory_v1')

    def test_users_read_write_and_paging(self):
        made = self.api.users().insert(body={
            'primaryEmail': 'python.user@example.com',
            'name': {'givenName': 'Py', 'familyName': 'Thon'},
            'password': 'correct horse battery staple',
        }).execute()
        self.assertEqual(self.api.users().get(userKey=made['id']).execute()['primaryEmail'], 'python.user@example.com')
        patched = self.api.users().patch(userKey=made['id'], body={'name': {'givenName': 'Monty'}}).execute()
        self.assertEqual(patched['name']['givenName'], 'Monty')
        users, pages = [], 0
        request = self.api.users().list(customer='my_customer', maxResults=1)
        while request is not None:
            answer = request.execute()
            users.extend(answer.get('users', []))
            pages += 1
            request = self.api.users().list_next(request, answer)
        self.assertIn('python.user@example.com', [user['primaryEmail'] for user in users])
        self.assertEqual(pages, len(users))

    def test_channels_stop(self):
        with self.assertRaises(HttpError) as stopped:
            self.api.channels().stop(body={'id': 'no-such-channel', 'resourceId': 'none'}).execute()
        self.assertEqual(stopped.exception.resp.status, 404)

    def test_batch(self):
        listed = self.api.users().list(customer='my_customer').execute()['users']
        answers = run_batch(self.api, [self.api.users().get(userKey=user['id']) for user in listed[:3]])
        self.assertEqual([response['id'] for response, _ in answers], [user['id'] for user in listed[:3]])
