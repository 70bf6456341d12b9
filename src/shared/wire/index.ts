/**
 * Wire format v1 for game datagrams: the types, node-address helpers and the
 * codec (encodePacket / decodePacket / fillPacket and their limits).
 */
export * from './types';
export * from './addr';
export * from './codec';
