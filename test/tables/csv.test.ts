// RFC 4180 CSV with the two additions docs/tables.md "CSV" names: NULL vs "", and the formula
// prefix taken off on import. Every value written reads back the same.
import { describe, expect, test } from "bun:test";
import { CsvError, csvField, csvRecord, parseCsv } from "../../src/lib/csv";

describe("csv", () => {
  test("quotes, commas, CRLF and LF line breaks inside quoted fields; a BOM; LF or CRLF records", () => {
    expect(parseCsv('\ufeffa,b\r\n"x, y","say ""hi"""\n"multi\r\nline",\n')).toEqual([
      ["a", "b"],
      ["x, y", 'say "hi"'],
      ["multi\r\nline", null],
    ]);
    expect(parseCsv("a")).toEqual([["a"]]);
    expect(parseCsv("")).toEqual([]);
  });

  test("an empty unquoted field is NULL, a quoted one the empty text", () => {
    expect(parseCsv(',"",x\n')).toEqual([[null, "", "x"]]);
    expect(csvField(null)).toBe("");
    expect(csvField("")).toBe('""');
  });

  test("formula-like text is prefixed on export and unprefixed on import; numbers never", () => {
    expect(csvField("=1+1")).toBe("'=1+1");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("\tx")).toBe("'\tx");
    expect(csvField("\rx")).toBe(`"'\rx"`);
    expect(csvField(-5)).toBe("-5");
    expect(csvField("'=x")).toBe("''=x");
    expect(csvField("'plain")).toBe("'plain");
  });

  test("every value written reads back unchanged", () => {
    const values = ["=cmd|' /C calc'!A0", "+1", "-", "@", "'", "''=", "'=x", "a,b", 'q"q', "line\nbreak", "cr\r\nlf", "", null, "plain", " spaced ", "Срочно 😀"];
    const text = csvRecord(values) + csvRecord(["x", ...values.slice(1)]);
    expect(parseCsv(text)).toEqual([values, ["x", ...values.slice(1)]]);
  });

  test("broken CSV names its record", () => {
    const fail = (text: string) => {
      try {
        parseCsv(text);
      } catch (e) {
        expect(e).toBeInstanceOf(CsvError);
        return [(e as CsvError).record, (e as Error).message];
      }
      throw new Error("parsed");
    };
    expect(fail('a\n"open\n')).toEqual([2, "a quoted field is not closed"]);
    expect(fail('a\nx"y\n')).toEqual([2, "a quote inside an unquoted field"]);
    expect(fail('"a"b\n')).toEqual([1, "text after a closing quote"]);
  });
});
