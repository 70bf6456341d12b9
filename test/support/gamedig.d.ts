/** The part of GameDig's API (a dev dependency without its own types) the A2S test uses. */
declare module 'gamedig' {
  export interface QueryResult {
    name: string;
    map: string;
    password: boolean;
    numplayers: number;
    maxplayers: number;
    players: { name?: string; raw?: Record<string, unknown> }[];
    bots: unknown[];
    connect: string;
    ping: number;
    version: string;
    raw?: Record<string, unknown>;
  }
  export const GameDig: {
    query(options: { type: string; host: string; port: number; requestRules?: boolean; maxRetries?: number; socketTimeout?: number; attemptTimeout?: number; givenPortOnly?: boolean }): Promise<QueryResult>;
  };
}
