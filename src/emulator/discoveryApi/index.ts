/**
 * Google's Discovery Service in the emulator: the directory list and each API's REST description, as
 * www.googleapis.com/discovery/v1 serves them, pointing at the emulator's own address and listing only the methods
 * the emulator has a route for, so a discovery-based client (Google's Python client, gapi) builds against it unchanged.
 */
import { badRequest, notFound } from '../core/errors';
import type { RequestContext, Route, Router } from '../core/router';
import type { ServiceModule } from '../core/server';
import { DiscoveryDocument, DISCOVERY_DOCUMENTS } from '../discovery/documents';
import { prunedDocument } from '../discovery/prune';

const DIRECTORY_PATH = '/discovery/v1/apis';

/** The document as served from `rootUrl` (`http://127.0.0.1:PORT/`): only `implemented` methods, only the schemas they reach. */
export function servedDocument(source: DiscoveryDocument, rootUrl: string, implemented: ReadonlySet<string>): DiscoveryDocument {
  const document = prunedDocument(source, implemented);
  document.rootUrl = rootUrl;
  document.mtlsRootUrl = rootUrl;
  document.baseUrl = `${rootUrl}${document.servicePath}`;
  return document;
}

/** The directory entry Google lists for an API (`discovery#directoryItem`). */
function directoryItem(document: DiscoveryDocument, origin: string): Record<string, unknown> {
  return {
    kind: 'discovery#directoryItem',
    id: document.id,
    name: document.name,
    version: document.version,
    title: document.title,
    description: document.description,
    discoveryRestUrl: `${origin}${DIRECTORY_PATH}/${document.name}/${document.version}/rest`,
    ...(document.icons ? { icons: document.icons } : {}),
    ...(document.documentationLink ? { documentationLink: document.documentationLink } : {}),
    preferred: true,
  };
}

export const discoveryModule: ServiceModule = {
  name: 'discovery',
  register(router: Router) {
    // Built on first use: by then every module has registered its routes. One per origin (tests run many emulators).
    const served = new Map<string, string>();
    const implemented = (): Set<string> => new Set(router.routes().map((route) => route.id));
    const restDescription = (context: RequestContext, document: DiscoveryDocument): string => {
      const key = `${context.baseUrl} ${document.id}`;
      let text = served.get(key);
      if (text === undefined) {
        text = JSON.stringify(servedDocument(document, `${context.baseUrl}/`, implemented()));
        served.set(key, text);
      }
      return text;
    };
    const routes: Route[] = [
      {
        id: 'discovery.apis.list', method: 'GET', path: DIRECTORY_PATH, auth: false,
        handle: (context) => {
          const name = context.query.string('name');
          // Each API is served in one version here, so every item is the preferred one and `preferred=true` filters nothing.
          context.query.boolean('preferred', false);
          const items = DISCOVERY_DOCUMENTS.filter((document) => name === undefined || document.name === name).map((document) => directoryItem(document, context.baseUrl));
          return { json: { kind: 'discovery#directoryList', discoveryVersion: 'v1', items } };
        },
      },
      {
        id: 'discovery.apis.getRest', method: 'GET', path: `${DIRECTORY_PATH}/:api/:version/rest`, auth: false,
        handle: (context) => {
          const document = DISCOVERY_DOCUMENTS.find((candidate) => candidate.name === context.params.api && candidate.version === context.params.version);
          if (!document) throw notFound(`Discovery document not found for API service: ${context.params.api} format: rest version: ${context.params.version}`);
          return { body: restDescription(context, document), contentType: 'application/json; charset=UTF-8' };
        },
      },
      {
        // Google's per-API form (`https://calendar.googleapis.com/$discovery/rest?version=v3`): here every API shares
        // one host, so the version names the API where only one has it; Tasks and Books (both v1) are told apart by `api`.
        id: 'discovery.apis.getRestByVersion', method: 'GET', path: '/$discovery/rest', auth: false,
        handle: (context) => {
          const version = context.query.string('version', 64);
          const api = context.query.string('api', 64);
          const matches = DISCOVERY_DOCUMENTS.filter((candidate) => candidate.version === version && (api === undefined || candidate.name === api));
          const document = matches[0];
          if (matches.length > 1) throw badRequest(`Several APIs have version ${version ?? ''} here (${matches.map((match) => match.name).join(', ')}): ask ${DIRECTORY_PATH}/{api}/${version ?? ''}/rest`);
          if (!document) throw notFound(`Discovery document not found for version: ${version ?? '(none)'}`);
          return { body: restDescription(context, document), contentType: 'application/json; charset=UTF-8' };
        },
      },
    ];
    router.addAll(routes);
  },
};
