"""The README's picture of the review page: the sample photo redacted by the real model.

    REDACTO_LITERTLM_THREADS=1 python -m devtools.bench.serve_screenshot [--model NAME|URI]
        [--out docs/images/serve-review.jpg]

Starts the review server with the model (default: the embedded default), opens the page in
Debian's headless chromium, uploads `examples/sample-medical-note.jpg`, waits for the
review and saves a screenshot (JPEG, 1,200 px wide: the page holds a photo). Needs
`chromium` and `chromium-driver` (scripts/setup.sh).
"""

from __future__ import annotations

import argparse
import io
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=None)
    parser.add_argument("--ocr", default="ppocr")
    parser.add_argument("--out", type=Path, default=ROOT / "docs/images/serve-review.jpg")
    args = parser.parse_args()

    from PIL import Image
    from selenium import webdriver
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from redacto.models import open_model
    from redacto.prompts import PromptLibrary
    from redacto.serve import ReviewServer, ServeConfig

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for argument in ("--headless=new", "--no-sandbox", "--window-size=1500,1420"):
        options.add_argument(argument)
    service = webdriver.ChromeService(shutil.which("chromedriver") or "chromedriver")
    with open_model(args.model) as engine:
        config = ServeConfig(ocr=args.ocr)
        with ReviewServer(engine, PromptLibrary.load(), config).start() as server:
            driver = webdriver.Chrome(options=options, service=service)
            try:
                driver.get(server.url)
                picker = driver.find_element(By.ID, "file")
                driver.execute_script("arguments[0].hidden = false;", picker)
                picker.send_keys(str(ROOT / "examples/sample-medical-note.jpg"))
                driver.execute_script("arguments[0].hidden = true;", picker)
                WebDriverWait(driver, 600).until(
                    lambda d: d.find_element(By.ID, "review").is_displayed()
                )
                driver.execute_script("document.activeElement.blur(); window.scrollTo(0, 0);")
                png = driver.get_screenshot_as_png()
            finally:
                driver.quit()
    image = Image.open(io.BytesIO(png)).convert("RGB")
    image = image.resize((1200, round(image.height * 1200 / image.width)), Image.Resampling.LANCZOS)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    image.save(args.out, quality=85, optimize=True)
    print(args.out)


if __name__ == "__main__":
    main()
