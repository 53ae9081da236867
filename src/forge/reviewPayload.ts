import { z } from "zod";
import type { ForgeComment } from "./comment.js";

// A GitHub pull request review as a delivery tells it (`pull_request_review`, action `submitted`;
// docs.github.com "Webhook events and payloads"): its body is read like a comment on the pull
// request — a mention of codexpi in it is a request —, the review's verdict said with the body
// when it is quoted to the agent. Its inline comments come as `pull_request_review_comment`
// deliveries of their own. GitLab has no such event: a review's comments, once submitted, come
// as Note Hooks (read as comments already), and an approval carries no text.

const user = z.object({ login: z.string(), id: z.union([z.number(), z.string()]) });
const repoRef = z.object({ full_name: z.string() }).nullable().optional();

const githubReview = z.object({
  action: z.literal("submitted"),
  review: z.object({
    body: z.string().nullable(),
    html_url: z.string(),
    state: z.string(),
    user,
  }),
  pull_request: z.object({
    number: z.number(),
    title: z.string(),
    html_url: z.string(),
    head: z.object({ ref: z.string(), repo: repoRef }),
    base: z.object({ repo: repoRef }),
  }),
  repository: z.object({ full_name: z.string() }),
});

/** A submitted review with a body, as a comment on its pull request (null for anything else). */
export function githubReviewOf(payload: unknown): ForgeComment | null {
  const p = githubReview.safeParse(payload);
  if (!p.success || !p.data.review.body) return null;
  const { review, pull_request: pr } = p.data;
  return {
    forge: "github",
    repo: p.data.repository.full_name,
    number: pr.number,
    onPull: true,
    title: pr.title,
    url: pr.html_url,
    author: { login: review.user.login, id: String(review.user.id) },
    body: review.body as string,
    commentUrl: review.html_url,
    review: null,
    verdict: review.state.toLowerCase(),
    head: {
      branch: pr.head.ref,
      fork: (pr.head.repo?.full_name ?? "") !== (pr.base.repo?.full_name ?? ""),
    },
  };
}
