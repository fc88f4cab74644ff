/** Drive v2's shared schemas, one module per resource: files (with users, references, about, changes, apps), comments, shared drives, labels, permissions, properties, revisions. */
export * from './files';
export * from './comments';
export * from './drives';
export * from './labels';
export * from './permissions';
export * from './properties';
export * from './revisions';
