/** A POPULATION_SHARD_KEY for the population self-tests: 256 random bits, as `openssl rand -hex 32` makes them. */
export const shardKey = 'f3a91c07d25e4b68a0c1e97d3b5f82046c1d9e2a7b30f5c48e91d06a2b7c3f5e';
