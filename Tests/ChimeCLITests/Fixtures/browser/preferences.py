"""Drives the preferences page in headless Chromium (Debian's chromium and chromedriver,
through Debian's python3-selenium) as a person would: clicks "Turn off" for one
category, types quiet hours, picks the preview setting and the language, clicks Save.

    preferences.py URL SCREENSHOT_FOLDER

Saves before.png and after.png in the folder and prints one JSON object: the page's
language and notice after saving, and which radio buttons are checked then.
"""
import json
import sys

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

url, folder = sys.argv[1], sys.argv[2]
options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=900,760"):
    options.add_argument(argument)
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
try:
    driver.get(url)
    # No JavaScript is needed: the page works with it turned off as well, but the
    # driver's own clicks are real pointer events either way.
    title = driver.title
    driver.save_screenshot(f"{folder}/before.png")
    driver.find_element(By.ID, "deliver-shop-off").click()
    quiet = driver.find_element(By.ID, "quietHours")
    quiet.clear()
    quiet.send_keys("21:00-06:00")
    Select(driver.find_element(By.ID, "showPreviews")).select_by_value("never")
    Select(driver.find_element(By.ID, "locale")).select_by_value("fr")
    driver.find_element(By.ID, "save").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.ID, "notice"))
    driver.save_screenshot(f"{folder}/after.png")
    checked = [e.get_attribute("id") for e in driver.find_elements(By.CSS_SELECTOR, "input[type=radio]:checked")]
    print(json.dumps({
        "titleBefore": title,
        "url": driver.current_url,
        "lang": driver.find_element(By.TAG_NAME, "html").get_attribute("lang"),
        "notice": driver.find_element(By.ID, "notice").text,
        "checked": checked,
        "quietHours": driver.find_element(By.ID, "quietHours").get_attribute("value"),
        "javascript": driver.execute_script("return document.scripts.length"),
    }))
finally:
    driver.quit()
