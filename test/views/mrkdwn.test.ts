import { describe, expect, it } from "vitest";
import {
  channelMention,
  escapeClip,
  escapeMrkdwn,
  markdownToMrkdwn,
  slackLink,
  userMention,
} from "../../src/views/mrkdwn.js";

const conv = markdownToMrkdwn;

describe("markdownToMrkdwn: emphasis", () => {
  it("turns double-star and double-underscore bold into Slack bold", () => {
    expect(conv("un **gras** et un __autre__")).toBe("un *gras* et un *autre*");
  });

  it("turns star and underscore italics into Slack italics", () => {
    expect(conv("un *italique* et un _autre_")).toBe("un _italique_ et un _autre_");
  });

  it("turns double-tilde strikethrough into Slack strikethrough", () => {
    expect(conv("~~barré~~ mais pas ~ seul")).toBe("~barré~ mais pas ~ seul");
  });

  it("nests bold and italic the way CommonMark does", () => {
    expect(conv("***les deux***")).toBe("_*les deux*_");
    expect(conv("**gras *et italique* dedans**")).toBe("*gras _et italique_ dedans*");
    expect(conv("*italique **et gras** dedans*")).toBe("_italique *et gras* dedans_");
    expect(conv("**gras *italique final***")).toBe("*gras _italique final_*");
  });

  it("leaves identifiers with underscores and lone stars alone", () => {
    expect(conv("snake_case_name vaut 2 * 3 * 4")).toBe("snake_case_name vaut 2 * 3 * 4");
    expect(conv("un ** seul et un * seul")).toBe("un ** seul et un * seul");
  });
});

describe("markdownToMrkdwn: blocks", () => {
  it("turns headings of any level into bold lines, without nested bold markers", () => {
    expect(conv("# Titre\n### Sous-titre ###\n## **Déjà gras**")).toBe("*Titre*\n*Sous-titre*\n*Déjà gras*");
  });

  it("does not take a hashtag for a heading", () => {
    expect(conv("#general et #42")).toBe("#general et #42");
  });

  it("turns dash, star and plus bullets into • and keeps the indentation of nested ones", () => {
    expect(conv("- un\n* deux\n+ trois\n  - imbriqué")).toBe("• un\n• deux\n• trois\n  • imbriqué");
  });

  it("converts emphasis inside list items and shows task boxes", () => {
    expect(conv("* item **important**\n- [ ] à faire\n- [x] fait")).toBe(
      "• item *important*\n• ☐ à faire\n• ☑ fait",
    );
  });

  it("keeps ordered lists numbered", () => {
    expect(conv("1. un\n2) deux")).toBe("1. un\n2. deux");
  });

  it("keeps block quotes as Slack quotes, one level deep", () => {
    expect(conv("> cité **fort**\n>> plus profond")).toBe("> cité *fort*\n> plus profond");
  });

  it("draws thematic breaks as a line", () => {
    expect(conv("---\n***\n* * *")).toBe("──────────\n──────────\n──────────");
  });

  it("keeps a table as an aligned code block", () => {
    const md = "| Nom | Valeur |\n|:----|-------:|\n| a | **1** |\n| long nom | 22 |\nAprès";
    expect(conv(md)).toBe(
      [
        "```",
        "| Nom      | Valeur |",
        "|----------|--------|",
        "| a        |      1 |",
        "| long nom |     22 |",
        "```",
        "Après",
      ].join("\n"),
    );
  });
});

describe("markdownToMrkdwn: links", () => {
  it("turns links into Slack links and escapes & in their URL", () => {
    expect(conv("[la doc](https://ex.com/a?b=1&c=2)")).toBe("<https://ex.com/a?b=1&amp;c=2|la doc>");
  });

  it("turns images into links to the image", () => {
    expect(conv("![schéma](https://ex.com/s.png) ![](https://ex.com/t.png)")).toBe(
      "<https://ex.com/s.png|schéma> <https://ex.com/t.png>",
    );
  });

  it("drops formatting inside link text, which Slack cannot show", () => {
    expect(conv("[un **lien** `code`](https://a.b)")).toBe("<https://a.b|un lien code>");
  });

  it("keeps bold around a link", () => {
    expect(conv("**[lien](https://c.d)**")).toBe("*<https://c.d|lien>*");
  });

  it("shows a relative link as its text and its target, never as a broken Slack link", () => {
    expect(conv("voir [a.ts](src/a.ts) et [src/b.ts](src/b.ts)")).toBe("voir a.ts (src/a.ts) et src/b.ts");
  });

  it("keeps autolinks and bare URLs intact, even with underscores or stars in them", () => {
    expect(conv("<https://auto.link/x> et https://ex.com/__init__.py.")).toBe(
      "<https://auto.link/x> et https://ex.com/__init__.py.",
    );
  });

  it("does not let a link's URL carry a pipe or angle bracket into Slack's syntax", () => {
    expect(conv("[t](https://a.b/x|y)")).toBe("<https://a.b/x%7Cy|t>");
  });
});

describe("markdownToMrkdwn: disguised links (security finding 11)", () => {
  it("a link whose text is another URL shows its real target", () => {
    expect(conv("[https://good.example](https://evil.example)")).toBe("<https://evil.example>");
    expect(conv("[https://good.example/login](https://evil.example/login)")).toBe(
      "<https://evil.example/login>",
    );
    expect(conv("![https://good.example/logo.png](https://evil.example/x.png)")).toBe(
      "<https://evil.example/x.png>",
    );
    expect(conv("[**https://good.example**](https://evil.example)")).toBe("<https://evil.example>");
  });

  it("a link whose text is a domain, a www address or an e-mail address of elsewhere shows its real target", () => {
    expect(conv("[good.example](https://evil.example)")).toBe("<https://evil.example>");
    expect(conv("[www.good.example](http://evil.example)")).toBe("<http://evil.example>");
    expect(conv("[good.example](https://good.example.evil.example/)")).toBe(
      "<https://good.example.evil.example/>",
    );
    expect(conv("[good.example](https://good.example@evil.example/)")).toBe(
      "<https://good.example@evil.example/>",
    );
    expect(conv("[support@good.example](mailto:thief@evil.example)")).toBe("<mailto:thief@evil.example>");
    expect(conv("[good.example:8443](https://good.example)")).toBe("<https://good.example>");
  });

  it("words around a URL do not hide it", () => {
    expect(conv("[télécharger depuis https://good.example](https://evil.example/setup)")).toBe(
      "<https://evil.example/setup>",
    );
  });

  it("an honest address stays a normal link: same host, a path the target continues", () => {
    expect(conv("[https://good.example](https://good.example/)")).toBe(
      "<https://good.example/|https://good.example>",
    );
    expect(conv("[good.example/docs](https://good.example/docs/intro)")).toBe(
      "<https://good.example/docs/intro|good.example/docs>",
    );
    expect(conv("[HTTP://Good.Example](https://good.example)")).toBe(
      "<https://good.example|HTTP://Good.Example>",
    );
    expect(conv("[bob@good.example](mailto:bob@good.example)")).toBe(
      "<mailto:bob@good.example|bob@good.example>",
    );
  });

  it("ordinary words stay a normal link", () => {
    expect(conv("[la documentation](https://evil.example)")).toBe("<https://evil.example|la documentation>");
    expect(conv("[voir le ticket 42](https://tracker.example/42)")).toBe(
      "<https://tracker.example/42|voir le ticket 42>",
    );
    expect(conv("[éditer config.yaml ici](https://github.com/o/r/edit/main/config.yaml)")).toBe(
      "<https://github.com/o/r/edit/main/config.yaml|éditer config.yaml ici>",
    );
  });

  it("a Slack-syntax link written by an agent is never a disguised link", () => {
    const out = conv(
      "Cliquez <https://evil.example|https://good.example> ou <https://evil.example|la banque> ou <!here|x>",
    );
    expect(out).not.toMatch(/<https:\/\/evil\.example\|/);
    expect(out).toContain("<https://evil.example%7Chttps://good.example>"); // one visible URL: exactly the link
    expect(out).toContain("&lt;https://evil.example%7Cla banque&gt;"); // a bare URL, then escaped text
    expect(out).toContain("&lt;!here|x&gt;");
    expect(conv("`<https://evil.example|good>`")).toBe("`&lt;https://evil.example|good&gt;`");
    expect(conv("&lt;https://evil.example|good&gt;")).toBe("&amp;lt;https://evil.example%7Cgood&amp;gt;");
  });
});

describe("markdownToMrkdwn: escaping and code", () => {
  it("escapes &, < and > in text so that no mention, broadcast or HTML gets through", () => {
    expect(conv("a & b <b>html</b> <@U123> <!channel>")).toBe(
      "a &amp; b &lt;b&gt;html&lt;/b&gt; &lt;@U123&gt; &lt;!channel&gt;",
    );
  });

  it("leaves inline code untouched apart from escaping", () => {
    expect(conv("`a*b*c` et `__x__` et ``y ` z``")).toBe("`a*b*c` et `__x__` et ``y ` z``");
    expect(conv("`if (a < b && c)`")).toBe("`if (a &lt; b &amp;&amp; c)`");
  });

  it("leaves fenced code untouched, drops the language tag and escapes for Slack", () => {
    const md =
      "Avant\n```ts\nconst x = **a** < b; // _pas_ converti\n  # pas un titre\n- pas une puce\n```\nAprès";
    expect(conv(md)).toBe(
      "Avant\n```\nconst x = **a** &lt; b; // _pas_ converti\n  # pas un titre\n- pas une puce\n```\nAprès",
    );
  });

  it("converts tilde fences and closes an unclosed fence at the end", () => {
    expect(conv("~~~python\nprint(1)\n~~~")).toBe("```\nprint(1)\n```");
    expect(conv("```\nsans fin")).toBe("```\nsans fin\n```");
  });

  it("removes the indentation of a fence nested in a list item", () => {
    expect(conv("- étape :\n  ```sh\n  npm test\n  ```")).toBe("• étape :\n```\nnpm test\n```");
  });

  it("breaks up ``` inside a code block so that Slack does not end the block early", () => {
    const out = conv("~~~\nx ```y``` z\n~~~");
    expect(out.split("\n").slice(1, -1).join("\n")).not.toContain("```");
    expect(out.replace(/\u200b/g, "")).toBe("```\nx ```y``` z\n```");
  });

  it("drops the backslash of escaped characters and converts nothing they mark", () => {
    expect(conv("\\_pas italique\\_ et 1\\. pas une liste")).toBe("_pas italique_ et 1. pas une liste");
  });

  it("normalises Windows line endings and keeps blank lines", () => {
    expect(conv("a\r\n\r\nb")).toBe("a\n\nb");
  });
});

describe("mrkdwn helpers", () => {
  it("escapes exactly the three characters Slack reserves", () => {
    expect(escapeMrkdwn("<a> & *b*")).toBe("&lt;a&gt; &amp; *b*");
  });

  it("clips escaped text without leaving half an entity", () => {
    const out = escapeClip("abc&def", 6);
    expect(out).toBe("abc…");
    expect(escapeClip("a<b", 10)).toBe("a&lt;b");
  });

  it("makes mentions only from real Slack ids", () => {
    expect(userMention("U123ABC")).toBe("<@U123ABC>");
    expect(userMention("<!here>")).toBe("&lt;!here&gt;");
    expect(channelMention("C0PROJ")).toBe("<#C0PROJ>");
  });

  it("builds links with a safe URL and escaped text", () => {
    expect(slackLink("https://a.b/?x=1&y=2", "a < b")).toBe("<https://a.b/?x=1&amp;y=2|a &lt; b>");
  });
});
