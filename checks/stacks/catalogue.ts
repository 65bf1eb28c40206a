import { authlib } from './authlib';
import { doorkeeper } from './doorkeeper';
import { jmondi } from './jmondi';
import { nodeOauth2Server } from './node-oauth2-server';
import { oauth2orize } from './oauth2orize';
import { oauthlib } from './oauthlib';
import { oidcProvider } from './oidc-provider';
import type { StackEntry } from './stack-entry';

/** Every OAuth server library the harness can name (checks/stacks/stack-entry.ts; docs/STACKS.md says how to add one). */
export const stackCatalogue: readonly StackEntry[] = [oidcProvider, nodeOauth2Server, oauth2orize, jmondi, authlib, oauthlib, doorkeeper];
