/** The members' read models, as the rest of the site reads them (docs/architecture.md#read-model-ownership). */
export { membersProjection, membersCollection, credentialsCollection, type MemberDocument } from './members';
export { memberPostCountsProjection, postCountsByAuthor } from './post-counts';
export { memberActivityProjection, memberActivityOf, HELD_NOT_GIVEN } from './activity';
