/** The OSM elements the readers yield, independent of the file format. */

/** OSM tags: key to value. */
export type OsmTags = Record<string, string>;

/** A node: a point with tags. */
export interface OsmNode {
  readonly type: "node";
  readonly id: number;
  readonly lon: number;
  readonly lat: number;
  readonly tags: OsmTags;
}

/** A way: an ordered list of node ids with tags. */
export interface OsmWay {
  readonly type: "way";
  readonly id: number;
  readonly refs: readonly number[];
  readonly tags: OsmTags;
}

/** One member of a relation. */
export interface OsmMember {
  readonly type: "node" | "way" | "relation";
  readonly ref: number;
  readonly role: string;
}

/** A relation: typed, ordered members with roles, and tags. */
export interface OsmRelation {
  readonly type: "relation";
  readonly id: number;
  readonly members: readonly OsmMember[];
  readonly tags: OsmTags;
}

/** Any OSM element. */
export type OsmElement = OsmNode | OsmWay | OsmRelation;
