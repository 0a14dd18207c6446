CREATE TABLE "blueprint_search_words" (
	"word" text NOT NULL,
	"id" uuid NOT NULL,
	"price" bigint NOT NULL,
	"quantity" integer NOT NULL,
	"state" "blueprint_state" NOT NULL,
	"storefront_category" "storefront_category",
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "blueprint_search_words_id_word_pk" PRIMARY KEY("id","word")
);
--> statement-breakpoint
CREATE TABLE "blueprint_words" (
	"word" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blueprint_search_words" ADD CONSTRAINT "blueprint_search_words_id_blueprint_search_id_fk" FOREIGN KEY ("id") REFERENCES "public"."blueprint_search"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A search row's words: what lies between ASCII whitespace in its (lower-case) title, each once. The
-- server takes a search text to the words only when it has no ASCII whitespace itself: then a
-- title contains the text exactly when one of its words does.
CREATE FUNCTION blueprint_title_words(title text) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
  SELECT DISTINCT word FROM regexp_split_to_table(title, '[ \t\n\r\f\v]+') AS word WHERE word <> ''
$$;--> statement-breakpoint
-- Every change of a search row rewrites its words' rows (they copy its filter and sort columns) and
-- adds new words to the vocabulary; deleting it deletes them (the foreign key).
CREATE FUNCTION blueprint_search_keep_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    DELETE FROM blueprint_search_words WHERE id = OLD.id;
  END IF;
  INSERT INTO blueprint_words (word) SELECT blueprint_title_words(NEW.title) ON CONFLICT DO NOTHING;
  INSERT INTO blueprint_search_words (word, id, price, quantity, state, storefront_category, created_at)
  SELECT word, NEW.id, NEW.price, NEW.quantity, NEW.state, NEW.storefront_category, NEW.created_at
  FROM blueprint_title_words(NEW.title) AS word;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER blueprint_search_keep_words AFTER INSERT OR UPDATE ON blueprint_search
  FOR EACH ROW EXECUTE FUNCTION blueprint_search_keep_words();--> statement-breakpoint
-- The words of today's search rows, then their indexes (built once rather than row by row).
INSERT INTO blueprint_search_words (word, id, price, quantity, state, storefront_category, created_at)
SELECT word, s.id, s.price, s.quantity, s.state, s.storefront_category, s.created_at
FROM blueprint_search s, blueprint_title_words(s.title) AS word;--> statement-breakpoint
INSERT INTO blueprint_words (word) SELECT DISTINCT word FROM blueprint_search_words;--> statement-breakpoint
CREATE INDEX "blueprint_search_words_search_idx" ON "blueprint_search_words" USING btree ("word","price","state","storefront_category","created_at","quantity","id");--> statement-breakpoint
CREATE INDEX "blueprint_words_word_trgm_idx" ON "blueprint_words" USING gin ("word" gin_trgm_ops) WITH (fastupdate=false);
