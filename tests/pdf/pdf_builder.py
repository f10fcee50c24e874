"""Hand-written PDFs for the tests: pages of Helvetica text, images, and the usual traps.

Each page is a content stream plus optional image XObjects; the document can carry an Info
dictionary, XMP metadata, annotations, a filled form field, an embedded file, JavaScript and
an outline. Kept minimal and readable, so a test states exactly what its PDF holds.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image

PAGE_W, PAGE_H = 612, 396  # US Letter wide, half height: small pages keep OCR quick


def text(
    x: float, y: float, words: str, *, size: int = 14, colour: str = "0 0 0", mode: int = 0
) -> str:
    """A text-showing operator sequence (mode 3 = invisible, as a scanner's OCR layer)."""
    escaped = words.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    return f"BT /F1 {size} Tf {colour} rg {mode} Tr {x} {y} Td ({escaped}) Tj ET\n"


def draw_image(name: str, x: float, y: float, w: float, h: float) -> str:
    return f"q {w} 0 0 {h} {x} {y} cm /{name} Do Q\n"


@dataclass
class Page:
    content: str
    images: dict[str, Image.Image] = field(default_factory=dict)
    annotation: str | None = None  # the text of a sticky-note comment
    media_box: tuple[float, float, float, float] = (0, 0, PAGE_W, PAGE_H)
    crop_box: tuple[float, float, float, float] | None = None
    rotate: int = 0
    user_unit: float | None = None

    def boxes(self) -> str:
        """The page dictionary's geometry entries."""
        entries = f"/MediaBox [{' '.join(str(v) for v in self.media_box)}]"
        if self.crop_box is not None:
            entries += f" /CropBox [{' '.join(str(v) for v in self.crop_box)}]"
        if self.rotate:
            entries += f" /Rotate {self.rotate}"
        if self.user_unit is not None:
            entries += f" /UserUnit {self.user_unit}"
        return entries


@dataclass
class Doc:
    pages: list[Page]
    info_author: str | None = None
    xmp_creator: str | None = None
    form_value: str | None = None  # a filled text field on page 1, with its appearance
    attachment: str | None = None  # an embedded file's contents
    javascript: str | None = None
    outline_title: str | None = None
    font_encoding: str | None = None  # the font's /Encoding (Helvetica's own when None)
    objects: list[bytes] = field(default_factory=list)

    def add(self, body: bytes | str, stream: bytes | None = None) -> int:
        body = body.encode("latin-1") if isinstance(body, str) else body
        if stream is not None:
            body = body + b"\nstream\n" + stream + b"\nendstream"
        self.objects.append(body)
        return len(self.objects)

    def write(self, path: Path) -> Path:
        self.objects = []
        catalog = self.add(b"")  # filled in below
        tree = self.add(b"")
        encoding = f" /Encoding {self.font_encoding}" if self.font_encoding else ""
        font = self.add(f"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica{encoding} >>")
        kids = []
        field_id = None
        for number, page in enumerate(self.pages):
            xobjects = []
            for name, image in page.images.items():
                rgb = image.convert("RGB")
                data = zlib.compress(rgb.tobytes())
                image_id = self.add(
                    f"<< /Type /XObject /Subtype /Image /Width {rgb.width} /Height "
                    f"{rgb.height} /ColorSpace /DeviceRGB /BitsPerComponent 8 "
                    f"/Filter /FlateDecode /Length {len(data)} >>",
                    data,
                )
                xobjects.append(f"/{name} {image_id} 0 R")
            stream = page.content.encode("latin-1")
            content = self.add(f"<< /Length {len(stream)} >>", stream)
            annots = []
            if page.annotation is not None:
                annots.append(
                    self.add(
                        f"<< /Type /Annot /Subtype /Text /Rect [20 20 40 40] "
                        f"/Contents ({page.annotation}) /T ({page.annotation}) /Open true >>"
                    )
                )
            if number == 0 and self.form_value is not None:
                appearance = text(2, 6, self.form_value, size=12).encode("latin-1")
                ap = self.add(
                    f"<< /Type /XObject /Subtype /Form /BBox [0 0 200 24] /Resources "
                    f"<< /Font << /F1 {font} 0 R >> >> /Length {len(appearance)} >>",
                    appearance,
                )
                field_id = self.add(
                    f"<< /Type /Annot /Subtype /Widget /FT /Tx /T (patient) "
                    f"/V ({self.form_value}) /Rect [300 40 500 64] /AP << /N {ap} 0 R >> "
                    f"/DA (/F1 12 Tf 0 g) >>"
                )
                annots.append(field_id)
            annot_list = " ".join(f"{a} 0 R" for a in annots)
            kids.append(
                self.add(
                    f"<< /Type /Page /Parent {tree} 0 R {page.boxes()} "
                    f"/Resources << /Font << /F1 {font} 0 R >> "
                    f"/XObject << {' '.join(xobjects)} >> >> "
                    f"/Contents {content} 0 R /Annots [{annot_list}] >>"
                )
            )
        extra = ""
        if self.xmp_creator is not None:
            xmp = (
                '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>'
                '<x:xmpmeta xmlns:x="adobe:ns:meta/">'
                '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
                '<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/">'
                f"<dc:creator>{self.xmp_creator}</dc:creator></rdf:Description></rdf:RDF>"
                '</x:xmpmeta><?xpacket end="w"?>'
            ).encode()
            meta = self.add(f"<< /Type /Metadata /Subtype /XML /Length {len(xmp)} >>", xmp)
            extra += f" /Metadata {meta} 0 R"
        if field_id is not None:
            extra += f" /AcroForm << /Fields [{field_id} 0 R] >>"
        names = ""
        if self.attachment is not None:
            payload = self.attachment.encode()
            file_id = self.add(f"<< /Type /EmbeddedFile /Length {len(payload)} >>", payload)
            spec = self.add(f"<< /Type /Filespec /F (notes.txt) /EF << /F {file_id} 0 R >> >>")
            names += f" /EmbeddedFiles << /Names [(notes.txt) {spec} 0 R] >>"
        if self.javascript is not None:
            js = self.add(f"<< /S /JavaScript /JS (app.alert\\('{self.javascript}'\\)) >>")
            names += f" /JavaScript << /Names [(hello) {js} 0 R] >>"
        if names:
            extra += f" /Names <<{names} >>"
        if self.outline_title is not None:
            outlines = len(self.objects) + 1
            item = outlines + 1
            self.add(f"<< /Type /Outlines /First {item} 0 R /Last {item} 0 R /Count 1 >>")
            self.add(
                f"<< /Title ({self.outline_title}) /Parent {outlines} 0 R "
                f"/Dest [{kids[0]} 0 R /Fit] >>"
            )
            extra += f" /Outlines {outlines} 0 R"
        self.objects[catalog - 1] = f"<< /Type /Catalog /Pages {tree} 0 R{extra} >>".encode()
        kid_refs = " ".join(f"{k} 0 R" for k in kids)
        self.objects[tree - 1] = (
            f"<< /Type /Pages /Kids [{kid_refs}] /Count {len(kids)} >>".encode()
        )
        info = ""
        if self.info_author is not None:
            info_id = self.add(
                f"<< /Author ({self.info_author}) /Title (Notes on {self.info_author}) >>"
            )
            info = f" /Info {info_id} 0 R"
        return write_objects(path, self.objects, f"/Root {catalog} 0 R{info}")


def write_objects(path: Path, objects: list[bytes], trailer: str) -> Path:
    """Objects numbered from 1, a classic xref table and a trailer."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    start = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{offset:010d} 00000 n \n" for offset in offsets).encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} {trailer} >>\nstartxref\n{start}\n%%EOF\n".encode()
    )
    path.write_bytes(bytes(out))
    return path
