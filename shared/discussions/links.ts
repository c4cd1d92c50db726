/** Where a topic and a reply are read on the site: notifications, the reports queue and mail link to them. */
export const topicLink = (topicId: string) => `/discussions/topics/${topicId}`;
export const replyLink = (topicId: string, replyId: string) => `${topicLink(topicId)}#reply-${replyId}`;
